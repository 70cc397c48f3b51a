import Foundation
import LifeSignalModels

/// A profile photo as stored, with its content type.
public struct StoredAvatar: Sendable, Hashable {
    public var bytes: [UInt8]
    public var contentType: String
}

/// Where a person stands in her escalation: the deadline her plan runs to, the step reached, and when the next one is due.
public struct EscalationPosition: Sendable, Hashable {
    public var deadline: Date
    public var step: Int
    public var nextActionAt: Date?
}

/// An account to insert with where its plan stands (many at once: the benchmark's seeding).
public struct NewUser: Sendable {
    public var user: User
    public var deadline: Date
    public var nextActionAt: Date?

    public init(user: User, deadline: Date, nextActionAt: Date?) {
        self.user = user
        self.deadline = deadline
        self.nextActionAt = nextActionAt
    }
}

/// Where a person stands in her plan after an engine pass: the step reached and when the next one is due.
public struct EscalationUpdate: Sendable {
    public var id: UserID
    public var step: Int
    public var nextActionAt: Date?

    public init(id: UserID, step: Int, nextActionAt: Date?) {
        self.id = id
        self.step = step
        self.nextActionAt = nextActionAt
    }
}

extension StoreTransaction {
    /// People: each person's row (profile, schedule, deadline, where the engine stands), read
    /// and written only from a locked read of it (decision 0037).
    public struct People: Sendable {
        let tx: StoreTransaction
    }

    public var people: People { People(tx: self) }
}

extension StoreTransaction.People {
    /// Reads people and their escalation state for update, one read of each row: on PostgreSQL
    /// the rows stay locked (taken in id order) until the transaction ends, so two engines can
    /// never take the same step. The rows' timeline heads are kept for this transaction's appends.
    public func lockEscalations(_ ids: [UserID]) async throws -> [EscalationState] {
        guard !ids.isEmpty else { return [] }
        let list = StoreTransaction.inList(ids)
        return try await tx.db.query(
            "SELECT \(StoreTransaction.userColumns) FROM users WHERE id IN \(list.sql)\(tx.lockRowsInIDOrder)", list.binds
        )
        .map { row in
            try tx.timeline.primeHead(from: row)
            let state = try StoreTransaction.decodeEscalationState(row)
            return EscalationState(
                user: try StoreTransaction.decodeUser(row), deadline: state.deadline, step: state.step, nextActionAt: state.nextActionAt)
        }
    }

    public func insert(_ user: User, deadline: Date, nextActionAt: Date?) async throws {
        try await tx.db.execute(
            "INSERT INTO users (\(StoreTransaction.insertedUserColumns)) VALUES \(StoreTransaction.insertedUserRow)",
            insertBinds(user, deadline: deadline, nextActionAt: nextActionAt))
    }

    /// New people, many rows per statement (seeding a large population: the benchmarks).
    public func insert(_ users: [NewUser]) async throws {
        try await tx.multiRow(
            "INSERT INTO users (\(StoreTransaction.insertedUserColumns)) VALUES ", row: StoreTransaction.insertedUserRow,
            users.map { insertBinds($0.user, deadline: $0.deadline, nextActionAt: $0.nextActionAt) })
    }

    private func insertBinds(_ user: User, deadline: Date, nextActionAt: Date?) -> [SQLValue] {
        scheduleBinds(user, head: [user.id, user.phone, user.firstName, user.lastName, user.emergencyNote])
            + [
                user.reminders.rawValue.sqlValue, user.graceMinutes.sqlValue,
                user.lastCheckInAt.sqlValue, PauseColumn.json(user.pauses).sqlValue, user.createdAt.sqlValue,
                user.contactCode.sqlValue, user.isOnboarded.sqlValue, deadline.sqlValue,
                nextActionAt.sqlValue, TimelineEntry.genesisHash.sqlValue, user.timeZone.sqlValue,
                user.watchOnly.sqlValue, user.language.sqlValue,
            ]
    }

    /// Saves the person's fields with the deadline derived from them and where the engine
    /// stands in that deadline's plan. When this transaction has appended to the person's
    /// timeline, the new head goes in the same statement (instead of one more at `finish()`).
    public func update(_ user: User, deadline: Date, escalationStep: Int, nextActionAt: Date?) async throws {
        var binds =
            scheduleBinds(user, head: [user.phone, user.firstName, user.lastName, user.emergencyNote])
            + [
                user.reminders.rawValue.sqlValue, user.graceMinutes.sqlValue,
                user.lastCheckInAt.sqlValue, PauseColumn.json(user.pauses).sqlValue, user.isOnboarded.sqlValue,
                deadline.sqlValue, nextActionAt.sqlValue, escalationStep.sqlValue, user.timeZone.sqlValue,
                user.watchOnly.sqlValue, user.language.sqlValue, user.quietHours.map { "\($0.from)-\($0.to)" }.sqlValue,
            ]
        let head = tx.timeline.movedHeadColumns(of: user.id)
        binds += head.binds
        let changed = try await tx.db.execute(
            """
            UPDATE users SET phone = ?, first_name = ?, last_name = ?, emergency_note = ?,
                schedule_kind = ?, interval_seconds = ?, daily_minute = ?, time_zone = ?, daily_call = ?, daily_times = ?,
                reminders = ?, grace_minutes = ?, last_check_in_at = ?, pauses = ?,
                onboarded = ?, deadline_at = ?, next_action_at = ?, escalation_step = ?, zone = ?, watch_only = ?, language = ?,
                quiet_hours = ?\(head.sql)
            WHERE id = ?
            """,
            binds + [user.id.sqlValue])
        if changed == 0 { throw StoreError.constraint("no user \(user.id)") }
    }

    /// A check-in's change to the person's row, and only that: when they last checked in, the
    /// deadline it moves, where the engine stands in that deadline's plan and, when this
    /// transaction appended to their timeline, the new head. Every other column is left as it
    /// is, so nothing a concurrent edit wrote can be overwritten from an older read.
    public func recordCheckIn(
        of userID: UserID, at: Date, deadline: Date, escalationStep: Int, nextActionAt: Date?
    ) async throws {
        var binds: [SQLValue] = [at.sqlValue, deadline.sqlValue, nextActionAt.sqlValue, escalationStep.sqlValue]
        let head = tx.timeline.movedHeadColumns(of: userID)
        binds += head.binds
        let changed = try await tx.db.execute(
            """
            UPDATE users SET last_check_in_at = ?, deadline_at = ?, next_action_at = ?, escalation_step = ?\(head.sql)
            WHERE id = ?
            """,
            binds + [userID.sqlValue])
        if changed == 0 { throw StoreError.constraint("no user \(userID)") }
    }

    private func scheduleBinds(_ user: User, head: [any SQLBindable]) -> [SQLValue] {
        let schedule: [SQLValue]
        switch user.schedule {
        case let .dailyCall(call):
            schedule = [
                "daily_call".sqlValue, 86400.sqlValue, (call.hour * 60 + call.minute).sqlValue, call.timeZone.sqlValue,
                DailyCallColumn(call).json.sqlValue, SQLValue.null,
            ]
        case let .interval(seconds):
            schedule = ["interval".sqlValue, seconds.sqlValue, 0.sqlValue, "UTC".sqlValue, SQLValue.null, SQLValue.null]
        case let .daily(daily):
            // One time every day needs no `daily_times`: the row reads as it did before it.
            let simple = daily.times.count == 1 && daily.first.isEveryDay
            schedule = [
                "daily".sqlValue, 86400.sqlValue, daily.first.minuteOfDay.sqlValue, daily.timeZone.sqlValue, SQLValue.null,
                simple ? SQLValue.null : DailyTimeColumn.json(daily.times).sqlValue,
            ]
        }
        return head.map(\.sqlValue) + schedule
    }

    public func user(_ id: UserID) async throws -> User? {
        try await tx.db.queryFirst("SELECT \(StoreTransaction.userColumns) FROM users WHERE id = ?", id).map(StoreTransaction.decodeUser)
    }

    public func user(phone: String) async throws -> User? {
        try await tx.db.queryFirst("SELECT \(StoreTransaction.userColumns) FROM users WHERE phone = ?", phone).map(
            StoreTransaction.decodeUser)
    }

    public func user(contactCode: String) async throws -> User? {
        try await tx.db.queryFirst("SELECT \(StoreTransaction.userColumns) FROM users WHERE contact_code = ?", contactCode)
            .map(StoreTransaction.decodeUser)
    }

    public func users(_ ids: [UserID]) async throws -> [UserID: User] {
        guard !ids.isEmpty else { return [:] }
        let list = StoreTransaction.inList(ids)
        let rows = try await tx.db.query("SELECT \(StoreTransaction.userColumns) FROM users WHERE id IN \(list.sql)", list.binds)
        return Dictionary(uniqueKeysWithValues: try rows.map(StoreTransaction.decodeUser).map { ($0.id, $0) })
    }

    public func setContactCode(_ id: UserID, code: String) async throws {
        try await tx.db.execute("UPDATE users SET contact_code = ? WHERE id = ?", code, id)
    }

    public func setAvatar(_ id: UserID, bytes: [UInt8]?, contentType: String?) async throws {
        try await tx.db.execute(
            "UPDATE users SET avatar = ?, avatar_type = ? WHERE id = ?",
            [bytes.map { SQLValue.blob($0) } ?? .null, contentType.sqlValue, id.sqlValue])
    }

    public func avatar(_ id: UserID) async throws -> StoredAvatar? {
        guard let row = try await tx.db.queryFirst("SELECT avatar, avatar_type FROM users WHERE id = ?", id),
            let bytes = try row.blob("avatar"), let type = try row.optionalString("avatar_type")
        else { return nil }
        return StoredAvatar(bytes: bytes, contentType: type)
    }

    public func delete(_ id: UserID) async throws {
        try await tx.timeline.writeEntries()  // so the delete cascades over them too
        try await tx.db.execute("DELETE FROM users WHERE id = ?", id)
    }

    /// The deadline stored with the user (derived from the schedule by the rules) and the escalation step.
    public func escalationState(_ id: UserID) async throws -> EscalationPosition? {
        try await tx.db.queryFirst("SELECT deadline_at, escalation_step, next_action_at FROM users WHERE id = ?", id)
            .map(StoreTransaction.decodeEscalationState)
    }

    /// One person's place in her plan (the store's own tests; the engine sets them in batches).
    func setEscalation(_ id: UserID, step: Int, nextActionAt: Date?) async throws {
        try await setEscalations([EscalationUpdate(id: id, step: step, nextActionAt: nextActionAt)])
    }

    /// Records where each person stands in their plan and releases the engine's lease. People
    /// who end at the same step and next action (most of a burst) share one statement.
    public func setEscalations(_ updates: [EscalationUpdate]) async throws {
        var groups: [EscalationMark: [UserID]] = [:]
        var order: [EscalationMark] = []
        for update in updates {
            let mark = EscalationMark(step: update.step, nextActionAt: update.nextActionAt?.milliseconds)
            if groups[mark] == nil { order.append(mark) }
            groups[mark, default: []].append(update.id)
        }
        for mark in order {
            let list = StoreTransaction.inList(groups[mark]!)
            try await tx.db.execute(
                """
                UPDATE users SET escalation_step = ?, next_action_at = ?, lease_owner = NULL, lease_until = NULL
                WHERE id IN \(list.sql)
                """,
                [mark.step.sqlValue, mark.nextActionAt.map { SQLValue.integer($0) } ?? .null] + list.binds)
        }
    }

    /// How many accounts there are (the store's own tests).
    func count() async throws -> Int {
        try await tx.db.queryFirst("SELECT COUNT(*) AS n FROM users")?.int("n") ?? 0
    }

    /// Time she added to one deadline, and where the engine now stands: only these columns, so
    /// a concurrent edit of anything else is never overwritten from an older read.
    public func setAddedTime(
        of userID: UserID, _ added: AddedTime, deadline: Date, escalationStep: Int, nextActionAt: Date?
    ) async throws {
        var binds: [SQLValue] = [
            added.from.sqlValue, added.until.sqlValue, deadline.sqlValue, nextActionAt.sqlValue, escalationStep.sqlValue,
        ]
        let head = tx.timeline.movedHeadColumns(of: userID)
        binds += head.binds
        let changed = try await tx.db.execute(
            """
            UPDATE users SET added_from = ?, added_until = ?, deadline_at = ?, next_action_at = ?,
                escalation_step = ?\(head.sql)
            WHERE id = ?
            """,
            binds + [userID.sqlValue])
        if changed == 0 { throw StoreError.constraint("no user \(userID)") }
    }

    /// Sets (a hash) or removes (nil) the person's call-in PIN.
    public func setCallInPin(_ id: UserID, hash: String?) async throws {
        try await tx.db.execute("UPDATE users SET call_in_pin = ? WHERE id = ?", hash.sqlValue, id)
    }

    /// The hash of the person's call-in PIN; nil when she has none.
    public func callInPinHash(_ id: UserID) async throws -> String? {
        try await tx.db.queryFirst("SELECT call_in_pin FROM users WHERE id = ?", id)?.optionalString("call_in_pin")
    }
}

extension StoreTransaction {
    static let userColumns = """
        id, phone, first_name, last_name, emergency_note, schedule_kind, interval_seconds,
        daily_minute, time_zone, reminders, grace_minutes, last_check_in_at, pauses,
        created_at, contact_code, avatar_type, onboarded, deadline_at, escalation_step,
        next_action_at, timeline_seq, timeline_head, zone, watch_only, language, daily_call, call_in_pin,
        added_from, added_until, daily_times, quiet_hours, share_location
        """

    fileprivate static let insertedUserColumns = """
        id, phone, first_name, last_name, emergency_note, schedule_kind,
            interval_seconds, daily_minute, time_zone, daily_call, daily_times, reminders, grace_minutes,
            last_check_in_at, pauses, created_at, contact_code, onboarded,
            deadline_at, next_action_at, timeline_head, zone, watch_only, language
        """

    fileprivate static let insertedUserRow = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

    static func decodeEscalationState(_ row: SQLRow) throws -> EscalationPosition {
        EscalationPosition(
            deadline: try row.date("deadline_at"), step: try row.int("escalation_step"),
            nextActionAt: try row.optionalDate("next_action_at"))
    }

    static func decodeUser(_ row: SQLRow) throws -> User {
        let schedule: CheckInSchedule
        switch try row.string("schedule_kind") {
        case "daily":
            let minute = try row.int("daily_minute")
            let zone = try row.string("time_zone")
            if let json = try row.optionalString("daily_times") {
                schedule = .daily(DailySchedule(times: try DailyTimeColumn.decode(json), timeZone: zone))
            } else {
                schedule = .daily(hour: minute / 60, minute: minute % 60, timeZone: zone)
            }
        case "daily_call":
            let minute = try row.int("daily_minute")
            let rest = try DailyCallColumn.decode(try row.optionalString("daily_call") ?? "{}")
            schedule = .dailyCall(
                DailyCall(
                    hour: minute / 60, minute: minute % 60, timeZone: try row.string("time_zone"), attempts: rest.attempts,
                    retryMinutes: rest.retryMinutes, weekdays: Set(rest.weekdays), number: rest.number))
        default:
            schedule = .interval(seconds: try row.int("interval_seconds"))
        }
        let id: UserID = try row.id("id")
        let firstName = try row.string("first_name")
        let lastName = try row.string("last_name")
        return User(
            id: id, phone: try row.string("phone"),
            firstName: firstName, lastName: lastName,
            emergencyNote: try row.string("emergency_note"), schedule: schedule,
            reminders: try row.value("reminders", as: ReminderChoice.self),
            graceMinutes: try row.int("grace_minutes"),
            lastCheckInAt: try row.optionalDate("last_check_in_at"),
            pauses: try row.optionalString("pauses").map {
                try PauseColumn.decode($0, owner: id, ownerName: User.fullName(firstName: firstName, lastName: lastName))
            } ?? [],
            createdAt: try row.date("created_at"), contactCode: try row.string("contact_code"),
            hasAvatar: try row.optionalString("avatar_type") != nil,
            isOnboarded: try row.bool("onboarded"), timeZone: try row.string("zone"),
            watchOnly: try row.bool("watch_only"), language: try row.optionalString("language"),
            hasCallInPin: try row.optionalString("call_in_pin") != nil,
            addedTime: try row.optionalDate("added_from").flatMap { from in
                try row.optionalDate("added_until").map { AddedTime(from: from, until: $0) }
            },
            quietHours: try row.optionalString("quiet_hours").flatMap(Self.quietHours),
            shareLocation: try row.int("share_location") > 0, shareLocationAtCheckIns: try row.int("share_location") > 1)
    }

    /// `HH:MM-HH:MM` as `users.quiet_hours` holds it.
    static func quietHours(_ text: String) -> QuietHours? {
        let parts = text.split(separator: "-").map(String.init)
        guard parts.count == 2, let from = QuietHours.minute(parts[0]), let to = QuietHours.minute(parts[1]) else { return nil }
        return QuietHours(fromMinute: from, toMinute: to)
    }
}

/// A step and next action time shared by people written in one statement.
private struct EscalationMark: Hashable {
    var step: Int
    var nextActionAt: Int64?
}
