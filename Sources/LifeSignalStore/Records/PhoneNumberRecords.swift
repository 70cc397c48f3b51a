import Foundation
import LifeSignalModels

/// What is known about a phone number that texts LifeSignal (see migration 0007).
public struct PhoneNumberState: Sendable, Equatable {
    /// When the number said STOP; nil while texts may go to it.
    public var optedOutAt: Date?
    /// Until when a second "SOS" raises the alert.
    public var sosPendingUntil: Date?
    /// Until when a digit picks one of several alerts from the list just sent.
    public var choiceUntil: Date?

    public init(optedOutAt: Date? = nil, sosPendingUntil: Date? = nil, choiceUntil: Date? = nil) {
        self.optedOutAt = optedOutAt
        self.sosPendingUntil = sosPendingUntil
        self.choiceUntil = choiceUntil
    }
}

extension StoreTransaction {
    /// The number's state (all nil when it never texted).
    public func phoneNumberState(_ address: String) async throws -> PhoneNumberState {
        guard let row = try await db.queryFirst("SELECT * FROM phone_numbers WHERE address = ?", address) else {
            return PhoneNumberState()
        }
        return PhoneNumberState(
            optedOutAt: try row.optionalDate("opted_out_at"), sosPendingUntil: try row.optionalDate("sos_pending_until"),
            choiceUntil: try row.optionalDate("choice_until"))
    }

    public func setPhoneNumberState(_ address: String, _ state: PhoneNumberState) async throws {
        try await db.execute(
            """
            INSERT INTO phone_numbers (address, opted_out_at, sos_pending_until, choice_until) VALUES (?, ?, ?, ?)
            ON CONFLICT (address) DO UPDATE SET opted_out_at = excluded.opted_out_at,
            sos_pending_until = excluded.sos_pending_until, choice_until = excluded.choice_until
            """,
            address, state.optedOutAt, state.sosPendingUntil, state.choiceUntil)
    }

    /// Which of `addresses` said STOP and have not said START since.
    public func optedOutNumbers(among addresses: [String]) async throws -> Set<String> {
        guard !addresses.isEmpty else { return [] }
        let list = Self.inList(Array(Set(addresses)))
        return Set(try await db.query(
            "SELECT address FROM phone_numbers WHERE opted_out_at IS NOT NULL AND address IN \(list.sql)", list.binds
        ).map { try $0.string("address") })
    }

    /// The people a phone number belongs to: whoever signs in with it, then whoever proved it
    /// as a text or call channel (each once, in that order).
    public func users(reachedAt address: String) async throws -> [UserID] {
        var ids: [UserID] = []
        if let owner = try await db.queryFirst("SELECT id FROM users WHERE phone = ?", address) {
            ids.append(try owner.id("id"))
        }
        for row in try await db.query(
            """
            SELECT user_id FROM channels WHERE address = ? AND kind IN ('sms', 'voice') AND verified_at IS NOT NULL
            ORDER BY created_at
            """, address)
        {
            let id: UserID = try row.id("user_id")
            if !ids.contains(id) { ids.append(id) }
        }
        return ids
    }
}
