import Foundation

/// The result of checking a timeline's hash chain.
public struct TimelineVerification: Sendable, Hashable, Codable {
    public var valid: Bool
    public var entries: Int
    /// The first entry whose hash or link does not match, if any.
    public var firstBadSequence: Int?
    public var headHash: String
    /// What is wrong, in words fit to show a person; nil when valid.
    public var reason: String?

    public init(valid: Bool, entries: Int, firstBadSequence: Int?, headHash: String, reason: String? = nil) {
        self.valid = valid
        self.entries = entries
        self.firstBadSequence = firstBadSequence
        self.headHash = headHash
        self.reason = reason
    }
}
