import Foundation
import LifeSignalModels
import LifeSignalRules
import Logging

/// One attempt at a delivery, and how outcomes are recorded and logged.
extension OutboxWorker {
    /// Sends one item and decides its outcome, without recording it.
    public func attempt(_ item: OutboxItem) async -> AttemptOutcome {
        var message = item.message
        message.inDoubtSince = item.inDoubtSince
        guard let adapter = registry.adapter(for: message.channel) else {
            return .failed(reason: Self.channelNotConfiguredReason)
        }
        let attempt = item.attempts + 1
        do {
            let receipt = try await adapter.send(message)
            // (A receipt is the provider's answer: recorded as it is, even during shutdown.)
            if receipt.foundAtProvider { return .alreadySent(providerID: receipt.providerID) }
            return switch receipt.status {
            case .delivered: .delivered(providerID: receipt.providerID)
            case .sent, .queued, .failed: .sent(providerID: receipt.providerID)
            }
        } catch {
            // Cut off by shutdown (its grace period over, the send's task is cancelled) or by
            // cancellation: the provider did not fail it; nothing is known but that it was
            // interrupted.
            if Task.isCancelled { return .interrupted }
            let failure: DeliveryLifecycle.AttemptFailure =
                switch error {
                case .permanent(let reason): .permanent(reason: reason)
                case .transient(let reason): .transient(reason: reason)
                }
            switch DeliveryLifecycle.afterAttempt(
                failure, attempt: attempt, maxAttempts: policy.maxAttempts, now: now(),
                backoff: { policy.delay(afterAttempt: $0, unitRandom: random()) })
            {
            case let .retry(at, reason): return .retry(at: at, reason: reason)
            case let .failed(reason): return .failed(reason: reason)
            }
        }
    }

    typealias Attempted = DeliveryRound.Attempted

    /// Records what a batch of attempts did, in one transaction; returns the store's error, if any.
    /// When the batch cannot be recorded, each attempt is recorded on its own, so one bad row
    /// never leaves the others unrecorded.
    func record(_ batch: [Attempted]) async -> (any Error)? {
        do {
            try await store.record(batch.map(\.record))
            for attempted in batch {
                log(attempted)
                metrics.attempted(channel: attempted.item.message.channel.rawValue, outcome: attempted.record.outcome)
            }
            return nil
        } catch {
            guard batch.count > 1 else {
                var failure = metadata(batch[0])
                failure["error"] = "\(String(reflecting: error))"
                logger.error("Could not record a delivery attempt", metadata: failure)
                return error
            }
            var firstError: (any Error)?
            for attempted in batch {
                if let error = await record([attempted]), firstError == nil { firstError = error }
            }
            return firstError
        }
    }

    func log(_ attempted: Attempted) {
        switch attempted.record.outcome {
        case .sent, .delivered: logger.info("Delivery attempt succeeded", metadata: metadata(attempted))
        case .alreadySent:
            logger.notice(
                "Delivery attempt succeeded: found at the provider from a cut-off attempt, not sent again",
                metadata: metadata(attempted))
        case .retry: logger.notice("Delivery attempt will be retried", metadata: metadata(attempted))
        case .failed: logger.warning("Delivery failed on this channel", metadata: metadata(attempted))
        case .interrupted: logger.notice("Delivery attempt interrupted by shutdown", metadata: metadata(attempted))
        }
    }

    /// Built only when a message is actually logged (the parameter is an autoclosure): describing
    /// the outcome goes through reflection, which cost more than the whole attempt on the log channel.
    func metadata(_ attempted: Attempted) -> Logger.Metadata {
        [
            "delivery": "\(attempted.item.message.deliveryID)", "channel": "\(attempted.item.message.channel.rawValue)",
            "attempt": "\(attempted.item.attempts + 1)", "outcome": "\(attempted.record.outcome)",
        ]
    }
}
