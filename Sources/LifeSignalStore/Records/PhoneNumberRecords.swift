import Foundation
import LifeSignalModels

/// What is known about a phone number that texts LifeSignal (see migrations 0007 and 0008).
public struct PhoneNumberState: Sendable, Equatable {
    /// When the number said STOP; nil while texts may go to it.
    public var optedOutAt: Date?
    /// Until when a second "SOS" raises the alert.
    public var sosPendingUntil: Date?
    /// The provider's id of the text that asked for the confirmation (the same text delivered
    /// twice does not confirm itself).
    public var sosMessage: String?
    /// Until when a second "SAFE" ends the sender's open SOS.
    public var safePendingUntil: Date?
    /// The provider's id of the text that asked to end it.
    public var safeMessage: String?
    /// Until when a digit picks one of the alerts in `choices`.
    public var choiceUntil: Date?
    /// The alerts listed to this number by number ("1 for Ada, 2 for Carl"), in that order.
    public var choices: [IncidentID]
    /// When this number was last sent the help text.
    public var helpSentAt: Date?

    public init(
        optedOutAt: Date? = nil, sosPendingUntil: Date? = nil, sosMessage: String? = nil, choiceUntil: Date? = nil,
        choices: [IncidentID] = [], helpSentAt: Date? = nil, safePendingUntil: Date? = nil, safeMessage: String? = nil
    ) {
        self.safePendingUntil = safePendingUntil
        self.safeMessage = safeMessage
        self.optedOutAt = optedOutAt
        self.sosPendingUntil = sosPendingUntil
        self.sosMessage = sosMessage
        self.choiceUntil = choiceUntil
        self.choices = choices
        self.helpSentAt = helpSentAt
    }
}

/// Whose number a number is: who signs in with it, and who proved it as a text or call channel.
public struct NumberOwners: Sendable, Hashable {
    public var signsIn: UserID?
    public var proved: [UserID]
}

extension StoreTransaction.Channels {
    /// The number's state (all nil when it never texted).
    public func phoneNumberState(_ address: String) async throws -> PhoneNumberState {
        guard let row = try await tx.db.queryFirst("SELECT * FROM phone_numbers WHERE address = ?", address) else {
            return PhoneNumberState()
        }
        let choices = try row.optionalString("choices")?.split(separator: ",").compactMap { UUID(uuidString: String($0)) }
        return PhoneNumberState(
            optedOutAt: try row.optionalDate("opted_out_at"), sosPendingUntil: try row.optionalDate("sos_pending_until"),
            sosMessage: try row.optionalString("sos_message"), choiceUntil: try row.optionalDate("choice_until"),
            choices: (choices ?? []).map { IncidentID($0) }, helpSentAt: try row.optionalDate("help_sent_at"),
            safePendingUntil: try row.optionalDate("safe_pending_until"), safeMessage: try row.optionalString("safe_message"))
    }

    public func setPhoneNumberState(_ address: String, _ state: PhoneNumberState) async throws {
        try await tx.db.execute(
            """
            INSERT INTO phone_numbers (address, opted_out_at, sos_pending_until, sos_message, choice_until, choices, help_sent_at,
                safe_pending_until, safe_message)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (address) DO UPDATE SET opted_out_at = excluded.opted_out_at,
            sos_pending_until = excluded.sos_pending_until, sos_message = excluded.sos_message,
            choice_until = excluded.choice_until, choices = excluded.choices, help_sent_at = excluded.help_sent_at,
            safe_pending_until = excluded.safe_pending_until, safe_message = excluded.safe_message
            """,
            address, state.optedOutAt, state.sosPendingUntil, state.sosMessage, state.choiceUntil,
            state.choices.isEmpty ? nil : state.choices.map(\.description).joined(separator: ","), state.helpSentAt,
            state.safePendingUntil, state.safeMessage)
    }

    /// Which of `addresses` said STOP and have not said START since.
    public func optedOutNumbers(among addresses: [String]) async throws -> Set<String> {
        guard !addresses.isEmpty else { return [] }
        let list = StoreTransaction.inList(Array(Set(addresses)))
        return Set(
            try await tx.db.query(
                "SELECT address FROM phone_numbers WHERE opted_out_at IS NOT NULL AND address IN \(list.sql)", list.binds
            ).map { try $0.string("address") })
    }

    /// Whose number this is: who signs in with it, and who proved it as a text or call channel
    /// (in the order they did).
    public func owners(ofNumber address: String) async throws -> NumberOwners {
        let signsIn: UserID? = try await tx.db.queryFirst("SELECT id FROM users WHERE phone = ?", address).map { try $0.id("id") }
        let proved: [UserID] = try await tx.db.query(
            """
            SELECT user_id, MIN(created_at) AS first_at FROM channels
            WHERE address = ? AND kind IN ('sms', 'voice') AND verified_at IS NOT NULL
            GROUP BY user_id ORDER BY first_at
            """, address
        ).map { try $0.id("user_id") }
        return NumberOwners(signsIn: signsIn, proved: proved)
    }
}
