import Foundation
import LifeSignalModels

/// What a responder's "I'm on it" does to an incident, and how often it is told to others.
///
/// - The holder saying it again changes nothing: a claim is never renewed before it lapses, so
///   nobody (an abusive partner among the responders) can keep the repeats silent for ever.
/// - Someone else's claim may be taken over while it holds; the holder is told.
/// - Each responder's "X is on it" is told at most once per incident per notice window, however
///   often it is pressed (``noticeWindow(at:length:)`` goes into the notices' step keys).
public enum ClaimRule {
    public enum Decision: Hashable, Sendable {
        /// The caller already holds a live claim: nothing changes, nobody is told.
        case unchanged
        /// The caller claims it; `takenFrom` held a live claim until now and is told.
        case claim(takenFrom: UserID?)
    }

    public static func decide(holder: UserID?, claimExpiresAt: Date?, responder: UserID, now: Date) -> Decision {
        let live = claimExpiresAt.map { $0 > now } ?? false
        guard let holder, live else { return .claim(takenFrom: nil) }
        return holder == responder ? .unchanged : .claim(takenFrom: holder)
    }

    /// The notice window `now` falls in: windows of `length` seconds from the epoch.
    public static func noticeWindow(at now: Date, length: TimeInterval) -> Int64 {
        Int64((now.timeIntervalSince1970 / max(length, 60)).rounded(.down))
    }
}
