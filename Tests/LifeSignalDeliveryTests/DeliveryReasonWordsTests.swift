import LifeSignalRules
import Testing

@testable import LifeSignalDelivery

/// The reasons the delivery writes are sentences `DeliveryReason` knows, so a reader of
/// another language reads them in theirs (the stored record stays English).
@Suite struct DeliveryReasonWordsTests {
    @Test func everyFixedReasonIsKnown() {
        var written = Array(TwilioChannel.reasons.values)
        written += [PrivateNetworkGuard.refusedReason, WorkerShutdown.interruptedReason, OutboxWorker.channelNotConfiguredReason]
        for sentence in written {
            #expect(DeliveryReason.said(sentence) != nil, "\(sentence)")
        }
    }

    /// Every answer of every provider the channels name, as `HTTPDelivery` words it.
    @Test func everyProvidersAnswerIsKnown() {
        let providers = [
            TwilioChannel.providerName(.sms), TwilioChannel.providerName(.voice), "The push service", "The webhook endpoint",
            "The ntfy server", "Apple's push service",
        ]
        for provider in providers {
            for status in [302, 404, 429, 500] {
                let reason = HTTPDelivery.classify(status: status, providerName: provider)?.reason ?? ""
                #expect(DeliveryReason.said(reason) != nil, "\(reason)")
            }
        }
    }
}
