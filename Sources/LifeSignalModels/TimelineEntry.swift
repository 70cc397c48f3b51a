import Foundation

/// One line of a person's append-only timeline, chained to the one before by hash.
public struct TimelineEntry: Codable, Hashable, Sendable {
    /// 1, 2, 3… per person.
    public var sequence: Int
    public var userID: UserID
    public var at: Date
    /// What happened: `check_in`, `reminder`, `incident_opened`, `delivery`…
    public var kind: String
    /// A sentence fit to show a person.
    public var summary: String
    /// Machine-readable detail, as sorted-key JSON.
    public var detail: String
    /// Hex SHA-256 of the previous entry (64 zeros for the first).
    public var previousHash: String
    /// Hex SHA-256 over the previous hash and this entry's fields.
    public var hash: String

    public static let genesisHash = String(repeating: "0", count: 64)

    public init(
        sequence: Int, userID: UserID, at: Date, kind: String, summary: String, detail: String,
        previousHash: String, hash: String
    ) {
        self.sequence = sequence
        self.userID = userID
        self.at = at
        self.kind = kind
        self.summary = summary
        self.detail = detail
        self.previousHash = previousHash
        self.hash = hash
    }

    /// The exact bytes hashed for an entry: stable across platforms and stores.
    public static func canonicalText(
        previousHash: String, sequence: Int, userID: UserID, atMilliseconds: Int64, kind: String,
        summary: String, detail: String
    ) -> String {
        [
            previousHash, String(sequence), userID.description, String(atMilliseconds), kind, summary,
            detail,
        ].joined(separator: "\n")
    }
}
