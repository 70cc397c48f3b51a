import Foundation

/// What became of one attempt, for the store to record.
public enum AttemptOutcome: Sendable, Equatable {
    /// The provider accepted it; the delivery becomes `sent`.
    case sent(providerID: String?)
    /// It reached the endpoint; the delivery becomes `delivered`.
    case delivered(providerID: String?)
    /// An earlier, unrecorded attempt's copy was found at the provider (``ChannelReceipt/foundAtProvider``):
    /// nothing was sent now; the delivery becomes `sent`, once.
    case alreadySent(providerID: String?)
    /// A transient failure: stay queued, due again at `at`, lease released.
    case retry(at: Date, reason: String)
    /// This channel is done with it; the store falls back to the recipient's next channel.
    case failed(reason: String)
    /// Cut off by shutdown before the provider answered (see ``WorkerShutdown``): stay queued,
    /// due at once, lease released, the attempt not counted, nothing written to a timeline. The
    /// provider may or may not have received it.
    case interrupted
}
