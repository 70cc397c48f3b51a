import Foundation
import LifeSignalModels

/// A person's sealed details as stored, and when she last changed them.
public struct StoredSealedDetails: Sendable, Hashable {
    public var details: String
    public var updatedAt: Date
}

extension StoreTransaction {
    /// Each person's sealed details: her text a responder can open only during an open alert.
    public struct SealedDetails: Sendable {
        let tx: StoreTransaction
    }

    public var sealedDetails: SealedDetails { SealedDetails(tx: self) }
}

extension StoreTransaction.SealedDetails {
    /// The person's sealed details and when she last changed them; nil when she has none.
    public func details(of user: UserID) async throws -> StoredSealedDetails? {
        try await tx.db.queryFirst("SELECT details, updated_at FROM sealed_details WHERE user_id = ?", user).map {
            StoredSealedDetails(details: try $0.string("details"), updatedAt: try $0.date("updated_at"))
        }
    }

    /// Writes the person's sealed details; an empty text removes them.
    public func set(_ user: UserID, _ details: String, at: Date) async throws {
        guard !details.isEmpty else {
            try await tx.db.execute("DELETE FROM sealed_details WHERE user_id = ?", user)
            return
        }
        try await tx.db.execute(
            """
            INSERT INTO sealed_details (user_id, details, updated_at) VALUES (?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET details = excluded.details, updated_at = excluded.updated_at
            """, user, details, at)
    }
}
