import Foundation
import LifeSignalModels

/// One side of a link: `contactID` carries `roles` as seen by `userID`.
public struct LinkRecord: Sendable, Equatable {
    public var userID: UserID
    public var contactID: UserID
    public var roles: ContactRoles
    public var addedAt: Date
    /// On `userID`'s side: `contactID` holds her key.
    public var keyHolder: Bool

    public init(userID: UserID, contactID: UserID, roles: ContactRoles, addedAt: Date, keyHolder: Bool = false) {
        self.userID = userID
        self.contactID = contactID
        self.roles = roles
        self.addedAt = addedAt
        self.keyHolder = keyHolder
    }
}

extension StoreTransaction {
    /// Both sides of each link between two people: their roles, who holds whose key, and the
    /// notices owed for links made before consent existed.
    public struct Links: Sendable {
        let tx: StoreTransaction
    }

    public var links: Links { Links(tx: self) }
}

extension StoreTransaction.Links {
    /// Stores both sides of a new link, mirrored. Throws `.constraint` if it exists.
    public func insert(_ link: LinkRecord) async throws {
        try await tx.db.execute(
            "INSERT INTO links (user_id, contact_id, roles, added_at) VALUES (?, ?, ?, ?), (?, ?, ?, ?)",
            link.userID, link.contactID, link.roles.rawValue, link.addedAt,
            link.contactID, link.userID, link.roles.mirrored.rawValue, link.addedAt)
    }

    /// ``insert(_:)`` for many links, many rows per statement (seeding: the benchmarks).
    public func insert(_ links: [LinkRecord]) async throws {
        try await tx.multiRow(
            "INSERT INTO links (user_id, contact_id, roles, added_at) VALUES ", row: "(?, ?, ?, ?), (?, ?, ?, ?)",
            links.map { link in
                [
                    link.userID.sqlValue, link.contactID.sqlValue, link.roles.rawValue.sqlValue, link.addedAt.sqlValue,
                    link.contactID.sqlValue, link.userID.sqlValue, link.roles.mirrored.rawValue.sqlValue, link.addedAt.sqlValue,
                ]
            })
    }

    /// Sets the roles from `userID`'s side and mirrors them on the other side.
    /// A side that no longer has its contact as a responder no longer has them as key holder.
    public func updateRoles(userID: UserID, contactID: UserID, roles: ContactRoles) async throws {
        let (mine, theirs) = (roles, roles.mirrored)
        try await tx.db.execute(
            "UPDATE links SET roles = ?, key_holder = CASE WHEN ? <> 0 THEN key_holder ELSE 0 END WHERE user_id = ? AND contact_id = ?",
            mine.rawValue, mine.isResponder, userID, contactID)
        try await tx.db.execute(
            "UPDATE links SET roles = ?, key_holder = CASE WHEN ? <> 0 THEN key_holder ELSE 0 END WHERE user_id = ? AND contact_id = ?",
            theirs.rawValue, theirs.isResponder, contactID, userID)
    }

    public func delete(userID: UserID, contactID: UserID) async throws {
        try await tx.db.execute(
            "DELETE FROM links WHERE (user_id = ? AND contact_id = ?) OR (user_id = ? AND contact_id = ?)",
            userID, contactID, contactID, userID)
    }

    public func link(userID: UserID, contactID: UserID) async throws -> LinkRecord? {
        try await tx.db.queryFirst(
            "SELECT * FROM links WHERE user_id = ? AND contact_id = ?", userID, contactID
        ).map(StoreTransaction.decodeLink)
    }

    public func all(of userID: UserID) async throws -> [LinkRecord] {
        try await tx.db.query("SELECT * FROM links WHERE user_id = ? ORDER BY added_at", userID)
            .map(StoreTransaction.decodeLink)
    }

    /// The people who watch over `userID` (its responders).
    public func responderIDs(of userID: UserID) async throws -> [UserID] {
        try await all(of: userID).filter { $0.roles.isResponder }.map(\.contactID)
    }

    /// The people who watch over `userID`, read whole in one query, in the order they were added.
    public func responders(of userID: UserID) async throws -> [User] {
        try await responders(of: [userID])[userID] ?? []
    }

    /// Each person's responders, read whole in one query, in the order they were added;
    /// people with none are absent.
    public func responders(of userIDs: [UserID]) async throws -> [UserID: [User]] {
        guard !userIDs.isEmpty else { return [:] }
        let list = StoreTransaction.inList(userIDs)
        let rows = try await tx.db.query(
            """
            SELECT l.user_id AS watched, \(StoreTransaction.linkedUserColumns) FROM links l JOIN users u ON u.id = l.contact_id
            WHERE l.user_id IN \(list.sql) AND (l.roles & ?) <> 0 ORDER BY l.added_at
            """, list.binds + [ContactRoles.responder.rawValue.sqlValue])
        var found: [UserID: [User]] = [:]
        for row in rows { found[try row.id("watched"), default: []].append(try StoreTransaction.decodeUser(row)) }
        return found
    }

    /// Sides of links made before consent existed whose owner has not yet been told what the link grants.
    public func dueConsentNotice(limit: Int) async throws -> [LinkRecord] {
        try await tx.db.query(
            "SELECT * FROM links WHERE consent_notice_due = 1 ORDER BY user_id, contact_id LIMIT ?", limit
        ).map(StoreTransaction.decodeLink)
    }

    public func clearConsentNotice(userID: UserID, contactID: UserID) async throws {
        try await tx.db.execute(
            "UPDATE links SET consent_notice_due = 0 WHERE user_id = ? AND contact_id = ?", userID, contactID)
    }

    /// The responders the person marked as holding her key, in the order they were added.
    public func keyHolders(of user: UserID) async throws -> [UserID] {
        try await keyHolders(of: [user])[user] ?? []
    }

    /// Each person's key holders, in one query; people with none are absent.
    public func keyHolders(of users: [UserID]) async throws -> [UserID: [UserID]] {
        guard !users.isEmpty else { return [:] }
        let list = StoreTransaction.inList(users)
        let rows = try await tx.db.query(
            """
            SELECT user_id, contact_id FROM links
            WHERE user_id IN \(list.sql) AND key_holder <> 0 AND (roles & ?) <> 0 ORDER BY added_at
            """, list.binds + [ContactRoles.responder.rawValue.sqlValue])
        var found: [UserID: [UserID]] = [:]
        for row in rows { found[try row.id("user_id"), default: []].append(try row.id("contact_id")) }
        return found
    }

    /// Marks (or unmarks) `contact` as holding `user`'s key, on her side of the link.
    public func setKeyHolder(user: UserID, contact: UserID, _ keyHolder: Bool) async throws {
        try await tx.db.execute(
            "UPDATE links SET key_holder = ? WHERE user_id = ? AND contact_id = ?", keyHolder, user, contact)
    }
}

extension StoreTransaction {
    /// `userColumns` of the users table aliased `u`.
    static let linkedUserColumns = userColumns.split(separator: ",")
        .map { "u." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        .joined(separator: ", ")

    static func decodeLink(_ row: SQLRow) throws -> LinkRecord {
        LinkRecord(
            userID: try row.id("user_id"), contactID: try row.id("contact_id"),
            roles: ContactRoles(rawValue: try row.int("roles")), addedAt: try row.date("added_at"),
            keyHolder: try row.bool("key_holder"))
    }
}
