import Foundation
import LifeSignalModels

extension StoreTransaction {
    /// Each person's ladder: the steps her alert climbs, as she saved them.
    public struct Ladders: Sendable {
        let tx: StoreTransaction
    }

    public var ladders: Ladders { Ladders(tx: self) }
}

extension StoreTransaction.Ladders {
    /// The person's saved ladder; nil when she never saved one (the default applies).
    public func ladder(of user: UserID) async throws -> Ladder? {
        try await ladders(of: [user])[user]
    }

    /// The saved ladders of these people, in one query; people with none are absent.
    public func ladders(of users: [UserID]) async throws -> [UserID: Ladder] {
        guard !users.isEmpty else { return [:] }
        let list = StoreTransaction.inList(users)
        var found: [UserID: Ladder] = [:]
        for row in try await tx.db.query("SELECT * FROM ladders WHERE user_id IN \(list.sql)", list.binds) {
            let steps = try JSONDecoder().decode([Ladder.Step].self, from: Data(try row.string("steps").utf8))
            found[try row.id("user_id")] = Ladder(
                steps: steps, sosClimbs: try row.bool("sos_climbs"), version: try row.int("version"))
        }
        return found
    }

    /// Saves the person's ladder as version `ladder.version` if the stored one is still
    /// `expected` (0: none saved yet); false when someone saved in between.
    public func save(_ user: UserID, _ ladder: Ladder, expected: Int, at: Date) async throws -> Bool {
        let steps = String(decoding: try StoreTransaction.ladderEncoder.encode(ladder.steps), as: UTF8.self)
        if expected == 0 {
            let rows = try await tx.db.query(
                """
                INSERT INTO ladders (user_id, steps, sos_climbs, version, updated_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (user_id) DO NOTHING RETURNING user_id
                """, user, steps, ladder.sosClimbs, ladder.version, at)
            return !rows.isEmpty
        }
        let rows = try await tx.db.query(
            """
            UPDATE ladders SET steps = ?, sos_climbs = ?, version = ?, updated_at = ?
            WHERE user_id = ? AND version = ? RETURNING user_id
            """, steps, ladder.sosClimbs, ladder.version, at, user, expected)
        return !rows.isEmpty
    }
}

extension StoreTransaction {
    static let ladderEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }()

    static let ladderDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()

    /// An incident's ladder as stored in `incidents.ladder`.
    static func encodeIncidentLadder(_ ladder: IncidentLadder?) throws -> String? {
        try ladder.map { String(decoding: try ladderEncoder.encode($0), as: UTF8.self) }
    }

    static func decodeIncidentLadder(_ text: String?) throws -> IncidentLadder? {
        try text.map { try ladderDecoder.decode(IncidentLadder.self, from: Data($0.utf8)) }
    }
}
