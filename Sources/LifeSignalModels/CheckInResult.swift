import Foundation

/// A check-in as recorded, with the status that follows from it.
public struct CheckInResult: Sendable, Hashable, Codable {
    public var checkIn: CheckIn
    public var status: CheckInStatus
    /// True when this id had been recorded before: nothing changed this time.
    public var duplicate: Bool
    /// What became of "please call me today", when the check-in asked for it; nil otherwise.
    public var callRequest: CallRequest?

    public init(checkIn: CheckIn, status: CheckInStatus, duplicate: Bool, callRequest: CallRequest? = nil) {
        self.checkIn = checkIn
        self.status = status
        self.duplicate = duplicate
        self.callRequest = callRequest
    }
}

/// "I'm OK, but please call me today": the person's responders are told quietly, without an
/// incident, at most once a calendar day (in her zone) each.
public struct CallRequest: Sendable, Hashable, Codable {
    public var outcome: Outcome
    /// The responders told by this request, by name (empty unless `outcome` is `asked`).
    public var told: [String]

    public enum Outcome: String, Sendable, Hashable, Codable, CaseIterable {
        /// Her responders were told now.
        case asked
        /// She had asked already today (or this was a retried check-in): nobody was told again.
        case alreadyAsked = "already_asked"
        /// Nobody watches over her: nobody could be asked. The check-in still counts.
        case nobody
    }

    public init(outcome: Outcome, told: [String] = []) {
        self.outcome = outcome
        self.told = told
    }
}
