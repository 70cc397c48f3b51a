import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalServer

/// "Reached" means reached: only a delivered text (an answered call) counts; a text handed to
/// the provider is "sent, not yet confirmed"; the development log says what it is.
@Suite struct ReachWordsTests {
    static let at = Date(timeIntervalSince1970: 1_800_000_000)

    static func proof(_ channel: ChannelKind, _ status: Delivery.Status, reason: String? = nil) -> DeliveryProof {
        DeliveryProof(
            Delivery(
                id: DeliveryID(UUID()), notificationID: NotificationID(UUID()), recipientID: UserID(UUID()), channel: channel,
                address: "+447700900101", status: status, reason: reason, createdAt: at, updatedAt: at))
    }

    static func bob(_ deliveries: [DeliveryProof]) -> ResponderProgress {
        ResponderProgress(userID: UserID(UUID()), name: "Bob", deliveries: deliveries)
    }

    @Test func onlyADeliveredOrAnsweredAlertIsReached() {
        #expect(Self.bob([Self.proof(.sms, .sent)]).reach == .sent)
        #expect(Self.bob([Self.proof(.sms, .sent), Self.proof(.sms, .delivered)]).reach == .reached)
        // A call placed and not answered is not reached.
        #expect(Self.bob([Self.proof(.voice, .sent)]).reach == .sent)
        #expect(Self.bob([Self.proof(.voice, .failed, reason: "Nobody answered the call.")]).reach == .unreachable)
        #expect(Self.bob([Self.proof(.voice, .delivered)]).reach == .reached)
    }

    @Test func theHeadingCountsOnlyWhatWasReached() {
        #expect(HelpView.heading([]) == "Nobody has been told")
        #expect(HelpView.heading([.trying, .trying]) == "Trying to reach your responders")
        #expect(HelpView.heading([.sent, .sent]) == "Alert sent to 2 of 2 responders, not yet confirmed")
        #expect(HelpView.heading([.reached, .trying]) == "1 of 2 responders reached")
        #expect(HelpView.heading([.reached, .sent]) == "1 of 2 responders reached, 1 more sent, not yet confirmed")
    }

    @Test func eachLineSaysWhatHappened() {
        let line = { (deliveries: [DeliveryProof]) in WebController.progressLine(Self.bob(deliveries)) }
        let time = WebController.clockTime(Self.at)
        #expect(line([Self.proof(.sms, .sent)]) == "text sent \(time), not yet confirmed")
        #expect(line([Self.proof(.sms, .delivered)]) == "text delivered \(time)")
        #expect(line([Self.proof(.email, .failed), Self.proof(.voice, .delivered)]) == "phone call answered \(time) (e-mail failed)")
        #expect(line([Self.proof(.log, .delivered)]) == "written to the server log (development) \(time)")
    }
}
