import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalStore

/// How often one person may make LifeSignal notify someone else. Each action has a limit per
/// sender and a tighter one per pair (sender → the person told), so a loop cannot bomb a
/// stranger's phone or run up the operator's SMS bill. An SOS is never limited here.
public struct AbuseLimits: Sendable, Hashable {
    public struct Limit: Sendable, Hashable {
        public var perUser: Int
        public var perPair: Int
        public var window: TimeInterval

        public init(perUser: Int, perPair: Int, window: TimeInterval) {
            self.perUser = perUser
            self.perPair = perPair
            self.window = window
        }
    }

    public var contactRequests = Limit(perUser: 20, perPair: 3, window: 86_400)
    public var roleChanges = Limit(perUser: 30, perPair: 6, window: 3_600)
    public var pings = Limit(perUser: 30, perPair: 6, window: 3_600)
    public var pingClears = Limit(perUser: 30, perPair: 6, window: 3_600)
    public var drills = Limit(perUser: 5, perPair: 5, window: 3_600)
    /// New numbers tried per person (each sends a code to a stranger's phone).
    public var phoneChanges = Limit(perUser: 5, perPair: 5, window: 3_600)
    /// Codes sent to new text, call and e-mail channels per person.
    public var channelCodes = Limit(perUser: 5, perPair: 5, window: 3_600)
    /// "I'm on it" per responder, and per responder and person (repeats within a window are
    /// told once anyway: ``ClaimRule``).
    public var acknowledgements = Limit(perUser: 60, perPair: 12, window: 3_600)
    /// Check-ins on someone's behalf (each tells the person and every other responder).
    public var behalfCheckIns = Limit(perUser: 20, perPair: 3, window: 3_600)
    /// Sealed details opened per responder, and per responder and person (each view is
    /// recorded on her timeline; she is told once per responder and alert).
    public var sealedViews = Limit(perUser: 30, perPair: 10, window: 3_600)
    /// Daily calls set up for others (each rings a number nobody has proved yet).
    public var dailyCallSetups = Limit(perUser: 5, perPair: 2, window: 86_400)
    /// Exports of one's own data (each reads the whole history; nobody else is told).
    public var exports = Limit(perUser: 10, perPair: 10, window: 3_600)
    /// Plans started per person (each tells her responders, and calling it off tells them
    /// again): a start-and-cancel loop cannot flood their phones.
    public var planStarts = Limit(perUser: 20, perPair: 20, window: 86_400)
    /// Pauses set, planned or ended per person (each tells her responders): a loop cannot
    /// flood their phones.
    public var pauseChanges = Limit(perUser: 30, perPair: 30, window: 86_400)
    /// After a declined request, how long before the same person may ask again.
    public var askAgainAfterDecline: TimeInterval = 86_400

    public init() {}
}

extension ServiceCore {
    /// Counts one action by `sender` towards `recipient` and refuses it (429 with Retry-After,
    /// and `refusal` as its code: `too_many_pings` counts in the bucket `pings`) once a limit
    /// is passed. Runs inside the action's transaction, so a refused action
    /// changes nothing, its own hit included.
    func enforceLimit(
        _ limit: AbuseLimits.Limit, refusal: ErrorCode, sender: UserID, recipient: UserID?,
        message: Said, tx: StoreTransaction
    ) async throws {
        let action = refusal.rawValue.replacing("too_many_", with: "")
        let perUser = try await tx.rateLimits.hit(bucket: "\(action):\(sender)", now: now, window: limit.window)
        var over = perUser > limit.perUser
        if let recipient {
            let perPair = try await tx.rateLimits.hit(bucket: "\(action):\(sender):\(recipient)", now: now, window: limit.window)
            over = over || perPair > limit.perPair
        }
        guard over else { return }
        let windowEnd = (now.timeIntervalSince1970 / limit.window).rounded(.down) * limit.window + limit.window
        throw ServiceError(
            .rateLimited, code: refusal, message,
            retryAfter: max(1, Int((windowEnd - now.timeIntervalSince1970).rounded(.up))))
    }
}
