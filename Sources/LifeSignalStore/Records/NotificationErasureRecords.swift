import Foundation
import LifeSignalModels

/// A notification's text, to be rewritten.
public struct NotificationText: Sendable, Equatable {
    public var id: NotificationID
    public var title: String
    public var body: String

    public init(id: NotificationID, title: String, body: String) {
        self.id = id
        self.title = title
        self.body = body
    }
}

extension StoreTransaction.Notifications {
    /// Other people's notifications that may name `userID`: those about them, those about an
    /// incident they were alerted of, and those received by their contacts and their contacts'
    /// contacts (a responder "is handling" an alert: told to the other responders).
    public func othersMentioning(_ userID: UserID) async throws -> [NotificationText] {
        try await tx.db.query(
            """
            SELECT id, title, body FROM notifications
            WHERE recipient_id <> ? AND (
                subject_user_id = ?
                OR incident_id IN (SELECT incident_id FROM incident_recipients WHERE user_id = ?)
                OR recipient_id IN (SELECT contact_id FROM links WHERE user_id = ?)
                OR recipient_id IN (SELECT user_id FROM links WHERE contact_id = ?)
                OR recipient_id IN (SELECT far.contact_id FROM links near JOIN links far ON far.user_id = near.contact_id
                    WHERE near.user_id = ?))
            """, userID, userID, userID, userID, userID, userID
        ).map { NotificationText(id: try $0.id("id"), title: try $0.string("title"), body: try $0.string("body")) }
    }

    /// Replaces the title and body of these notifications.
    public func rewriteTexts(_ texts: [NotificationText]) async throws {
        for text in texts {
            try await tx.db.execute("UPDATE notifications SET title = ?, body = ? WHERE id = ?", text.title, text.body, text.id)
        }
    }
}
