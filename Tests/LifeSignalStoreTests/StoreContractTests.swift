import Foundation
import LifeSignalModels
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@_spi(Testing) @testable import LifeSignalStore

/// The store contract: every test runs against SQLite (a real file) and, when
/// `LIFESIGNAL_TEST_POSTGRES_URL` is set, against PostgreSQL (a fresh database per test).
@Suite("Store contract", .timeLimit(.minutes(2)))
struct StoreContractTests {
    // MARK: Migrations

    @Test("migrations apply from empty, idempotently", arguments: Backend.all)
    func migrationsFromEmpty(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            try await Migrator.migrate(database)
            let newest = try #require(Migration.all.map(\.version).max())
            #expect(try await Migrator.currentVersion(database) == newest)
            // Every table of the schema exists and is empty.
            for table in [
                "users", "sessions", "sign_in_codes", "rate_limits", "check_ins", "links", "pings",
                "incidents", "incident_recipients", "notifications", "channels", "deliveries",
                "timeline", "engine_heartbeats", "instances",
            ] {
                let count = try await database.read { try await $0.queryFirst("SELECT COUNT(*) AS n FROM \(table)")?.int("n") }
                #expect(count == 0, "table \(table)")
            }
            // Running again changes nothing.
            try await Migrator.migrate(database)
            #expect(try await Migrator.currentVersion(database) == newest)
            let applied = try await database.read {
                try await $0.queryFirst("SELECT COUNT(*) AS n FROM schema_migrations")?.int("n")
            }
            #expect(applied == Migration.all.count)
        }
    }

    @Test("a later migration applies once, in its own transaction", arguments: Backend.all)
    func laterMigration(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            try await Migrator.migrate(database)
            let next = (Migration.all.map(\.version).max() ?? 0) + 1
            let extra = Migration(
                version: next, name: "test_extra",
                sqlite: "CREATE TABLE test_extra (id TEXT PRIMARY KEY);\nCREATE INDEX test_extra_id ON test_extra (id);",
                postgres: "CREATE TABLE test_extra (id TEXT PRIMARY KEY);\nCREATE INDEX test_extra_id ON test_extra (id);")
            try await Migrator.migrate(database, migrations: Migration.all + [extra])
            try await Migrator.migrate(database, migrations: Migration.all + [extra])
            #expect(try await Migrator.currentVersion(database) == next)
            // A broken migration rolls back entirely and leaves the version where it was.
            let broken = Migration(
                version: next + 1, name: "broken",
                sqlite: "CREATE TABLE half (id TEXT);\nCREATE TABLE half (id TEXT);",
                postgres: "CREATE TABLE half (id TEXT);\nCREATE TABLE half (id TEXT);")
            await #expect(throws: StoreError.self) {
                try await Migrator.migrate(database, migrations: Migration.all + [extra, broken])
            }
            #expect(try await Migrator.currentVersion(database) == next)
            await #expect(throws: StoreError.self) {
                _ = try await database.read { try await $0.query("SELECT * FROM half", []) }
            }
        }
    }

    @Test("several instances migrating at once all succeed", arguments: Backend.all)
    func concurrentMigrators(_ backend: Backend) async throws {
        try await withDatabase(backend) { first, test in
            var handles: [any SQLDatabase] = [first]
            for _ in 0..<3 { handles.append(try await test.open()) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for handle in handles { group.addTask { try await Migrator.migrate(handle) } }
                try await group.waitForAll()
            }
            for handle in handles.dropFirst() { await handle.close() }
            #expect(try await Migrator.currentVersion(first) == Migration.all.map(\.version).max())
            let applied = try await first.read {
                try await $0.queryFirst("SELECT COUNT(*) AS n FROM schema_migrations")?.int("n")
            }
            #expect(applied == Migration.all.count)
        }
    }

    // MARK: Values

    @Test("values round-trip: integers, reals, text, blobs, nulls", arguments: Backend.all)
    func valuesRoundTrip(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let blob = backend == .sqlite ? "BLOB" : "BYTEA"
            let real = backend == .sqlite ? "REAL" : "DOUBLE PRECISION"
            try await database.executeScript(
                "CREATE TABLE vals (k TEXT PRIMARY KEY, i BIGINT, r \(real), t TEXT, b \(blob));")
            let bytes: [UInt8] = [0, 1, 2, 0x7F, 0x80, 0xFF, 0]
            let text = "héllo ✓ 'quoted' ? ; \"dq\""
            try await database.write { db in
                let changed = try await db.execute(
                    "INSERT INTO vals (k, i, r, t, b) VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)",
                    [
                        .text("a"), .integer(.max), .real(1.5), .text(text), .blob(bytes),
                        .text("b"), .null, .null, .null, .null,
                    ])
                #expect(changed == 2)
            }
            let rows = try await database.read { try await $0.query("SELECT * FROM vals ORDER BY k", []) }
            #expect(rows.count == 2)
            #expect(rows[0]["i"] == .integer(Int64.max))
            #expect(rows[0]["r"] == .real(1.5))
            #expect(rows[0]["t"] == .text(text))
            #expect(rows[0]["b"] == .blob(bytes))
            #expect(rows[1].values.dropFirst().allSatisfy { $0 == .null })
            #expect(rows[0].columns == ["k", "i", "r", "t", "b"])
            // A `?` inside a string literal is not a placeholder; aggregates come back as integers.
            let literal = try await database.read {
                try await $0.queryFirst("SELECT '?' AS q, COUNT(*) AS n, SUM(i) AS s FROM vals WHERE k = ?", "a")
            }
            #expect(literal?["q"] == .text("?"))
            #expect(try literal?.int("n") == 1)
            #expect(try literal?.int64("s") == Int64.max)
            // Changed-row counts.
            let updated = try await database.write { try await $0.execute("UPDATE vals SET i = ? WHERE k IN (?, ?)", 7, "a", "b") }
            #expect(updated == 2)
            let none = try await database.write { try await $0.execute("DELETE FROM vals WHERE k = ?", "zzz") }
            #expect(none == 0)
            // A wrong number of values is an error, not a silent null.
            await #expect(throws: StoreError.self) {
                _ = try await database.read { try await $0.query("SELECT * FROM vals WHERE k = ?", []) }
            }
        }
    }

    // MARK: Users

    @Test("users: insert, update, lookups, avatar, escalation", arguments: Backend.all)
    func users(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            var user = makeUser(phone: "+14155550100", schedule: .daily(hour: 9, minute: 30, timeZone: "Europe/Paris"))
            try await insertUser(store, user)
            let other = try await insertUser(store)
            let id = user.id
            let firstCode = user.contactCode
            var expected = user

            let byID = try await store.read { try await $0.user(id) }
            #expect(byID == expected)
            #expect(try await store.read { try await $0.user(phone: "+14155550100") } == expected)
            #expect(try await store.read { try await $0.user(contactCode: firstCode) } == expected)
            #expect(try await store.read { try await $0.user(phone: "+10000000000") } == nil)
            #expect(try await store.read { try await $0.user(UserID(UUID())) } == nil)
            let both = try await store.read { try await $0.users([id, other.id, UserID(UUID())]) }
            #expect(both == [id: expected, other.id: other])
            #expect(try await store.read { try await $0.userCount() } == 2)

            user.firstName = "Ada"
            user.lastName = "O'Neil"
            user.emergencyNote = "allergic; to ? marks"
            user.schedule = .interval(seconds: 3600)
            user.reminders = .both
            user.graceMinutes = 25
            user.lastCheckInAt = at(10.5)
            user.pauses = [Pause.startingNow(at(10.5), until: at(999), setBy: user.id, setByName: "Ada O'Neil")]
            user.isOnboarded = true
            expected = user
            try await store.write { [user] db in
                try await db.setEscalation(user.id, step: 1, nextActionAt: at(50))
                try await db.updateUser(user, deadline: at(3600), escalationStep: 3, nextActionAt: at(3000))
            }
            #expect(try await store.read { try await $0.user(id) } == expected)
            var state = try #require(try await store.read { try await $0.escalationState(id) })
            #expect(state.deadline == at(3600))
            #expect(state.step == 3)
            #expect(state.nextActionAt == at(3000))
            try await store.write { [user] in
                try await $0.updateUser(user, deadline: at(7200), escalationStep: 0, nextActionAt: nil)
            }
            state = try #require(try await store.read { try await $0.escalationState(id) })
            #expect(state.step == 0)
            #expect(state.nextActionAt == nil)

            // A check-in writes its own columns only: a name changed since the caller's read
            // (a concurrent profile edit) stays.
            let edited = renamed(user)
            try await store.write { try await $0.updateUser(edited, deadline: at(7200), escalationStep: 0, nextActionAt: nil) }
            try await store.write {
                try await $0.recordCheckIn(of: id, at: at(20), deadline: at(3620), escalationStep: 1, nextActionAt: at(3000))
            }
            let checkedIn = try #require(try await store.read { try await $0.user(id) })
            #expect(checkedIn.firstName == "Grace")
            #expect(checkedIn.lastCheckInAt == at(20))
            state = try #require(try await store.read { try await $0.escalationState(id) })
            #expect(state.deadline == at(3620))
            #expect(state.step == 1)
            #expect(state.nextActionAt == at(3000))
            await #expect(throws: StoreError.self) {
                try await store.write {
                    try await $0.recordCheckIn(of: UserID(UUID()), at: at(20), deadline: at(3620), escalationStep: 0, nextActionAt: nil)
                }
            }
            try await store.write { [user] in try await $0.updateUser(user, deadline: at(7200), escalationStep: 0, nextActionAt: nil) }

            let avatar: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0, 0xFF, 0x00, 0x10]
            try await store.write { try await $0.setAvatar(id, bytes: avatar, contentType: "image/png") }
            let stored = try #require(try await store.read { try await $0.avatar(id) })
            #expect(stored.bytes == avatar)
            #expect(stored.contentType == "image/png")
            #expect(try await store.read { try await $0.user(id) }?.hasAvatar == true)
            try await store.write { try await $0.setAvatar(id, bytes: nil, contentType: nil) }
            #expect(try await store.read { try await $0.avatar(id) } == nil)

            try await store.write { try await $0.setContactCode(id, code: "feedface") }
            #expect(try await store.read { try await $0.user(contactCode: "feedface") }?.id == id)
            #expect(try await store.read { try await $0.user(contactCode: firstCode) } == nil)
        }
    }

    private func renamed(_ user: User) -> User {
        var user = user
        user.firstName = "Grace"
        return user
    }

    @Test("unique phone and contact code surface as StoreError.constraint", arguments: Backend.all)
    func uniqueConstraints(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let first = try await insertUser(store, makeUser(phone: "+14155550101", code: "code-1"))
            let second = try await insertUser(store, makeUser(phone: "+14155550102", code: "code-2"))
            await expectConstraint("same phone") { try await insertUser(store, makeUser(phone: "+14155550101")) }
            await expectConstraint("same contact code") { try await insertUser(store, makeUser(code: "code-1")) }
            await expectConstraint("same id") {
                var copy = makeUser()
                copy.id = first.id
                try await insertUser(store, copy)
            }
            await expectConstraint("code taken") {
                try await store.write { try await $0.setContactCode(second.id, code: "code-1") }
            }
            await expectConstraint("phone taken") {
                var changed = second
                changed.phone = first.phone
                try await store.write { [changed] in try await $0.updateUser(changed, deadline: t0, escalationStep: 0, nextActionAt: nil) }
            }
            await expectConstraint("no such user") {
                try await store.write { try await $0.updateUser(makeUser(), deadline: t0, escalationStep: 0, nextActionAt: nil) }
            }
            // The failed writes left nothing behind.
            #expect(try await store.read { try await $0.userCount() } == 2)
            #expect(try await store.read { try await $0.user(second.id) } == second)
        }
    }

    // MARK: Check-ins

    @Test("check-ins are recorded once per (user, id)", arguments: Backend.all)
    func checkInIdempotency(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let bob = try await insertUser(store)
            let id = CheckInID(UUID())
            let first = CheckIn(id: id, userID: ann.id, at: at(1), clientAt: at(0.5), source: .app)
            #expect(try await store.write { try await $0.insertCheckIn(first) } == true)
            let again = CheckIn(id: id, userID: ann.id, at: at(2), source: .web)
            #expect(try await store.write { try await $0.insertCheckIn(again) } == false)
            // The same id from another user is another check-in.
            let bobs = CheckIn(id: id, userID: bob.id, at: at(3), source: .responder, recordedBy: ann.id)
            #expect(try await store.write { try await $0.insertCheckIn(bobs) } == true)

            #expect(try await store.read { try await $0.checkIn(id, of: ann.id) } == first)
            #expect(try await store.read { try await $0.checkIn(id, of: bob.id) } == bobs)
            #expect(try await store.read { try await $0.checkIns(of: ann.id, before: nil, limit: 10) } == [first])

            for second in 10..<15 {
                _ = try await store.write {
                    try await $0.insertCheckIn(CheckIn(id: CheckInID(UUID()), userID: ann.id, at: at(Double(second)), source: .cli))
                }
            }
            let page = try await store.read { try await $0.checkIns(of: ann.id, before: at(14), limit: 3) }
            #expect(page.map(\.at) == [at(13), at(12), at(11)])
            await expectConstraint("unknown user") {
                _ = try await store.write {
                    try await $0.insertCheckIn(CheckIn(id: CheckInID(UUID()), userID: UserID(UUID()), at: t0, source: .app))
                }
            }
        }
    }

    // MARK: Links

    @Test("a person's responders are read whole, in the order they were added", arguments: Backend.all)
    func responders(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            var named = makeUser()
            named.firstName = "Bob"
            let bob = try await insertUser(store, named)
            let cid = try await insertUser(store)
            let dee = try await insertUser(store)
            try await store.write { tx in
                try await tx.insertLink(LinkRecord(userID: ann.id, contactID: cid.id, roles: [.responder, .dependent], addedAt: at(2)))
                try await tx.insertLink(LinkRecord(userID: ann.id, contactID: bob.id, roles: .responder, addedAt: at(1)))
                try await tx.insertLink(LinkRecord(userID: ann.id, contactID: dee.id, roles: .dependent, addedAt: at(0)))
            }
            let responders = try await store.read { try await $0.responders(of: ann.id) }
            #expect(responders.map(\.id) == [bob.id, cid.id])
            #expect(responders.first?.firstName == "Bob")
            #expect(responders.first?.phone == bob.phone)
            #expect(responders.map(\.id) == (try await store.read { try await $0.responderIDs(of: ann.id) }))
            #expect(try await store.read { try await $0.responders(of: dee.id) }.map(\.id) == [ann.id])
            #expect(try await store.read { try await $0.responders(of: bob.id) }.isEmpty)
        }
    }

    @Test("links are mirrored, never to oneself, never twice", arguments: Backend.all)
    func links(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let bob = try await insertUser(store)
            let cid = try await insertUser(store)
            try await store.write {
                try await $0.insertLink(LinkRecord(userID: ann.id, contactID: bob.id, roles: .responder, addedAt: at(1)))
            }
            #expect(try await store.read { try await $0.link(userID: ann.id, contactID: bob.id) }?.roles == .responder)
            #expect(try await store.read { try await $0.link(userID: bob.id, contactID: ann.id) }?.roles == .dependent)
            #expect(try await store.read { try await $0.responderIDs(of: ann.id) } == [bob.id])
            #expect(try await store.read { try await $0.responderIDs(of: bob.id) } == [])

            await expectConstraint("self link") {
                try await store.write {
                    try await $0.insertLink(LinkRecord(userID: cid.id, contactID: cid.id, roles: .responder, addedAt: t0))
                }
            }
            await expectConstraint("duplicate") {
                try await store.write {
                    try await $0.insertLink(LinkRecord(userID: ann.id, contactID: bob.id, roles: .dependent, addedAt: t0))
                }
            }
            await expectConstraint("duplicate from the other side") {
                try await store.write {
                    try await $0.insertLink(LinkRecord(userID: bob.id, contactID: ann.id, roles: .responder, addedAt: t0))
                }
            }
            await expectConstraint("no roles") {
                try await store.write {
                    try await $0.insertLink(LinkRecord(userID: ann.id, contactID: cid.id, roles: [], addedAt: t0))
                }
            }
            #expect(try await store.read { try await $0.links(of: cid.id) } == [])

            try await store.write {
                try await $0.updateLinkRoles(userID: bob.id, contactID: ann.id, roles: [.responder, .dependent])
            }
            #expect(try await store.read { try await $0.link(userID: ann.id, contactID: bob.id) }?.roles == [.responder, .dependent])
            try await store.write { try await $0.deleteLink(userID: bob.id, contactID: ann.id) }
            #expect(try await store.read { try await $0.links(of: ann.id) } == [])
            #expect(try await store.read { try await $0.links(of: bob.id) } == [])
        }
    }

    // MARK: Pings

    @Test("one pending ping per pair", arguments: Backend.all)
    func pings(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let bob = try await insertUser(store)
            let first = Ping(id: PingID(UUID()), fromUserID: ann.id, toUserID: bob.id, sentAt: at(1))
            try await store.write { try await $0.insertPing(first) }
            await expectConstraint("second pending ping") {
                try await store.write {
                    try await $0.insertPing(Ping(id: PingID(UUID()), fromUserID: ann.id, toUserID: bob.id, sentAt: at(2)))
                }
            }
            // The other direction is another pair.
            let back = Ping(id: PingID(UUID()), fromUserID: bob.id, toUserID: ann.id, sentAt: at(3))
            try await store.write { try await $0.insertPing(back) }
            #expect(try await store.read { try await $0.pendingPing(from: ann.id, to: bob.id) } == first)
            #expect(try await store.read { try await $0.pendingPings(involving: ann.id) } == [first, back])

            #expect(try await store.write { try await $0.answerPing(first.id, at: at(4)) } == true)
            #expect(try await store.write { try await $0.answerPing(first.id, at: at(5)) } == false)
            #expect(try await store.write { try await $0.clearPing(first.id, at: at(5)) } == false)
            #expect(try await store.read { try await $0.ping(first.id) }?.answeredAt == at(4))
            #expect(try await store.read { try await $0.pendingPing(from: ann.id, to: bob.id) } == nil)
            // Once answered, a new ping may be sent.
            let next = Ping(id: PingID(UUID()), fromUserID: ann.id, toUserID: bob.id, sentAt: at(6))
            try await store.write { try await $0.insertPing(next) }
            #expect(try await store.write { try await $0.clearPing(next.id, at: at(7)) } == true)
            #expect(try await store.read { try await $0.pendingPings(involving: ann.id) } == [back])
        }
    }

    // MARK: Incidents

    @Test("one open incident per user and kind", arguments: Backend.all)
    func incidents(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let bob = try await insertUser(store)
            var missed = Incident(
                id: IncidentID(UUID()), userID: ann.id, kind: .missedCheckIn, openedAt: at(1), dueAt: at(0),
                late: true, nextNotifyAt: at(60))
            let first = missed
            #expect(try await store.write { try await $0.insertIncident(first) } == true)
            let duplicate = Incident(id: IncidentID(UUID()), userID: ann.id, kind: .missedCheckIn, openedAt: at(2), dueAt: at(0))
            #expect(try await store.write { try await $0.insertIncident(duplicate) } == false)
            let manual = Incident(id: IncidentID(UUID()), userID: ann.id, kind: .manualAlert, openedAt: at(3), dueAt: at(3))
            #expect(try await store.write { try await $0.insertIncident(manual) } == true)
            let opened = missed
            #expect(try await store.read { try await $0.openIncidents(of: ann.id) } == [opened, manual])
            #expect(try await store.read { try await $0.openIncidents(of: [ann.id, bob.id]) }.count == 2)

            try await store.write { [missed] db in
                try await db.addIncidentRecipient(missed.id, userID: bob.id, at: at(5))
                try await db.addIncidentRecipient(missed.id, userID: bob.id, at: at(6))
                try await db.addIncidentRecipient(missed.id, userID: ann.id, at: at(7))
            }
            let missedID = missed.id
            #expect(try await store.read { try await $0.incidentRecipients(missedID) } == [bob.id, ann.id])

            missed.acknowledgedBy = bob.id
            missed.acknowledgedAt = at(10)
            missed.notifyCount = 2
            missed.resolvedAt = at(20)
            missed.resolvedBy = bob.id
            missed.resolution = .resolvedByResponder
            missed.nextNotifyAt = nil
            let resolved = missed
            try await store.write { try await $0.updateIncident(resolved) }
            #expect(try await store.read { try await $0.incident(missedID) } == resolved)
            #expect(try await store.read { try await $0.openIncidents(of: ann.id) } == [manual])
            // Once resolved, the same kind may open again.
            let reopened = Incident(id: IncidentID(UUID()), userID: ann.id, kind: .missedCheckIn, openedAt: at(30), dueAt: at(29))
            #expect(try await store.write { try await $0.insertIncident(reopened) } == true)
            #expect(try await store.read { try await $0.incidents(of: ann.id, limit: 2) }.map(\.id) == [reopened.id, manual.id])
        }
    }

    // MARK: Notifications

    @Test("notifications: step dedupe, filters, paging, read state", arguments: Backend.all)
    func notifications(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let bob = try await insertUser(store)
            let alert = makeNotification(to: ann.id, type: .incidentOpened, subject: bob.id, at: at(10))
            #expect(try await store.write { try await $0.insertNotification(alert, stepKey: "inc-1:step-1") } == true)
            let again = makeNotification(to: ann.id, type: .incidentOpened, at: at(11))
            #expect(try await store.write { try await $0.insertNotification(again, stepKey: "inc-1:step-1") } == false)
            // Without a step key there is no dedupe.
            let kinds: [LifeSignalModels.Notification.Kind] = [.pingReceived, .contactAdded, .drill, .pingAnswered]
            var all = [alert]
            for (offset, kind) in kinds.enumerated() {
                let n = makeNotification(to: ann.id, type: kind, at: at(Double(20 + offset)))
                #expect(try await store.write { try await $0.insertNotification(n) } == true)
                all.append(n)
            }
            _ = try await store.write { try await $0.insertNotification(makeNotification(to: bob.id, at: at(15))) }

            let newestFirst = all.sorted { $0.createdAt > $1.createdAt }
            let everything = try await store.read { try await $0.notifications(of: ann.id, NotificationQuery(since: t0)) }
            #expect(everything == newestFirst)
            let pings = try await store.read {
                try await $0.notifications(of: ann.id, NotificationQuery(category: .pings, since: t0))
            }
            #expect(pings.map(\.type) == [.pingAnswered, .pingReceived])
            let alerts = try await store.read {
                try await $0.notifications(of: ann.id, NotificationQuery(category: .alerts, since: t0))
            }
            #expect(alerts == [alert])
            // Paging backwards with `before` and `limit`.
            let page1 = try await store.read { try await $0.notifications(of: ann.id, NotificationQuery(since: t0, limit: 2)) }
            #expect(page1 == Array(newestFirst.prefix(2)))
            let page2 = try await store.read {
                try await $0.notifications(of: ann.id, NotificationQuery(before: page1.last?.createdAt, since: t0, limit: 2))
            }
            #expect(page2 == Array(newestFirst.dropFirst(2).prefix(2)))
            let recent = try await store.read { try await $0.notifications(of: ann.id, NotificationQuery(since: at(21))) }
            #expect(recent.count == 3)

            #expect(try await store.read { try await $0.unreadCount(of: ann.id, since: t0) } == 5)
            #expect(try await store.write { try await $0.markNotificationRead(alert.id, of: ann.id, at: at(30)) } == true)
            #expect(try await store.write { try await $0.markNotificationRead(alert.id, of: bob.id, at: at(31)) } == false)
            // Marking again keeps the first read time.
            _ = try await store.write { try await $0.markNotificationRead(alert.id, of: ann.id, at: at(40)) }
            #expect(try await store.read { try await $0.notification(alert.id) }?.readAt == at(30))
            let unread = try await store.read {
                try await $0.notifications(of: ann.id, NotificationQuery(unreadOnly: true, since: t0))
            }
            #expect(unread.count == 4)
            #expect(!unread.contains { $0.id == alert.id })
            #expect(try await store.write { try await $0.markAllNotificationsRead(of: ann.id, at: at(50)) } == 4)
            #expect(try await store.read { try await $0.unreadCount(of: ann.id, since: t0) } == 0)
            #expect(try await store.read { try await $0.unreadCount(of: bob.id, since: t0) } == 1)
            #expect(try await store.write { try await $0.hideNotification(alert.id, of: bob.id, at: at(60)) } == false)
            #expect(try await store.write { try await $0.hideNotification(alert.id, of: ann.id, at: at(60)) } == true)
            #expect(try await store.write { try await $0.hideNotification(alert.id, of: ann.id, at: at(61)) } == false)
            // Hidden from its recipient's history, kept as the delivery proof others see.
            #expect(try await store.read { try await $0.notification(alert.id) } != nil)
            #expect(
                try await store.read { try await $0.notifications(of: ann.id, NotificationQuery(since: t0)) }
                    .contains { $0.id == alert.id } == false)
        }
    }

    @Test("many rows per statement: every group size, step dedupe within and across batches, outcomes with nulls", arguments: Backend.all)
    func multiRowWrites(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let users = [try await insertUser(store), try await insertUser(store), try await insertUser(store)]
            // 150 rows take every group size (64, 64, 16, 4, 1, 1); the last repeats the 8th's step key.
            let batch = (0..<150).map { index in
                (makeNotification(to: users[index % 3].id, at: at(Double(index))), Optional("step-\(index == 149 ? 7 : index)"))
            }
            let inserted = try await store.write { try await $0.insertNotifications(batch) }
            #expect(inserted == Set(batch.dropLast().map(\.0.id)))
            let again = batch.map { (makeNotification(to: $0.0.recipientID), $0.1) }
            #expect(try await store.write { try await $0.insertNotifications(again) }.isEmpty)
            #expect(try await store.read { try await $0.notification(batch[149].0.id) } == nil)

            let deliveries = batch.dropLast().map { (makeDelivery($0.0), 0, Optional(at(0))) }
            try await store.write { try await $0.insertDeliveries(deliveries) }
            try await store.write { tx in
                try await tx.updateDelivery(
                    deliveries[0].0.id, status: .sent, reason: nil, attempts: 1, providerID: "p-0", nextAttemptAt: nil, at: at(5))
            }
            // Outcomes mixing nulls and values in every column that can be null; a null provider
            // id keeps the one stored.
            let updates = deliveries.enumerated().map { index, row in
                DeliveryUpdate(
                    id: row.0.id, status: index % 2 == 0 ? .delivered : .queued, reason: index % 2 == 0 ? nil : "busy",
                    attempts: 2, providerID: index % 2 == 0 ? nil : "p-\(index)",
                    nextAttemptAt: index % 2 == 0 ? nil : at(60), at: at(10))
            }
            try await store.write { try await $0.updateDeliveries(updates) }
            for (index, row) in deliveries.enumerated() {
                let saved = try #require(try await store.read { try await $0.delivery(row.0.id) }?.0)
                #expect(saved.status == (index % 2 == 0 ? .delivered : .queued))
                #expect(saved.reason == (index % 2 == 0 ? nil : "busy"))
                #expect(saved.attempts == 2)
                #expect(saved.providerID == (index == 0 ? "p-0" : index % 2 == 0 ? nil : "p-\(index)"))
                #expect(saved.updatedAt == at(10))
            }
            // An outcome that expects fewer attempts than the delivery now has (a worker whose
            // lease was taken over) changes nothing and is not reported as recorded.
            let stale = DeliveryUpdate(
                id: deliveries[1].0.id, status: .failed, reason: "late", attempts: 2, providerID: nil, nextAttemptAt: nil,
                at: at(20), expectedAttempts: 1)
            let current = DeliveryUpdate(
                id: deliveries[3].0.id, status: .queued, reason: "busy", attempts: 3, providerID: nil, nextAttemptAt: at(60),
                at: at(20), expectedAttempts: 2)
            #expect(try await store.write { try await $0.updateDeliveries([stale, current]) } == [deliveries[3].0.id])
            #expect(try await store.read { try await $0.delivery(deliveries[1].0.id) }?.0.status == .queued)
            #expect(try await store.read { try await $0.delivery(deliveries[3].0.id) }?.0.attempts == 3)
            let due = try await store.write {
                try await $0.claimDueDeliveries(now: at(60), limit: 500, owner: "w", leaseUntil: at(120))
            }
            #expect(due.count == 74)

            // People with the same step and next action share a statement; each keeps their own.
            try await store.write { tx in
                try await tx.setEscalations([(users[0].id, 3, nil), (users[1].id, 2, at(99)), (users[2].id, 3, nil)])
            }
            var states: [EscalationPosition?] = []
            for user in users { states.append(try await store.read { try await $0.escalationState(user.id) }) }
            #expect(states.map { $0?.step } == [3, 2, 3])
            #expect(states.map { $0?.nextActionAt } == [nil, at(99), nil])
            // An IN list of three, padded to four, still finds exactly three.
            #expect(try await store.read { try await $0.users(users.map(\.id)) }.count == 3)
        }
    }

    // MARK: Rate limits, sessions, codes

    @Test("rate limits count hits per fixed window", arguments: Backend.all)
    func rateLimits(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let window: TimeInterval = 60
            let start = Date(milliseconds: 1_760_000_040_000)  // a window boundary
            var hits: [Int] = []
            for offset in [0.0, 10, 59.9] {
                hits.append(try await store.write { try await $0.hitRateLimit(bucket: "sms:+1", now: start + offset, window: window) })
            }
            #expect(hits == [1, 2, 3])
            #expect(try await store.write { try await $0.hitRateLimit(bucket: "sms:+2", now: start, window: window) } == 1)
            // The next window starts over.
            #expect(try await store.write { try await $0.hitRateLimit(bucket: "sms:+1", now: start + 60, window: window) } == 1)
            #expect(try await store.write { try await $0.hitRateLimit(bucket: "sms:+1", now: start + 61, window: window) } == 2)
        }
    }

    @Test("the database server's processes: PostgreSQL's backends, none for SQLite", arguments: Backend.all)
    func serverProcesses(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let pids = try await store.serverProcessIDs()
            #expect(backend == .sqlite ? pids.isEmpty : pids.allSatisfy { $0 > 0 } && !pids.isEmpty)
        }
    }

    @Test("sessions and pending sign-in codes", arguments: Backend.all)
    func sessionsAndCodes(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let session = Session(id: SessionID(UUID()), userID: ann.id, kind: .session, name: "phone", createdAt: at(1), lastUsedAt: at(1))
            try await store.write { try await $0.insertSession(session, tokenHash: "hash-1") }
            // The one-statement read every request starts with answers the same session and the
            // whole person (both tables have `id` and `created_at`), and nothing for another hash.
            let joined = try await store.sessionWithUser(tokenHash: "hash-1")
            #expect(joined?.session == session)
            #expect(joined?.user == (try await store.read { try await $0.user(ann.id) }))
            #expect(try await store.sessionWithUser(tokenHash: "hash-2") == nil)
            await expectConstraint("same token hash") {
                try await store.write {
                    try await $0.insertSession(
                        Session(id: SessionID(UUID()), userID: ann.id, kind: .session, name: "x", createdAt: t0, lastUsedAt: t0),
                        tokenHash: "hash-1")
                }
            }
            try await store.write { try await $0.touchSession(session.id, at: at(30)) }
            #expect(try await store.sessionWithUser(tokenHash: "hash-1")?.session.lastUsedAt == at(1))
            try await store.write { try await $0.touchSession(session.id, at: at(120)) }
            #expect(try await store.sessionWithUser(tokenHash: "hash-1")?.session.lastUsedAt == at(120))

            var code = PendingCode(
                phone: "+1", purpose: "sign_in", userID: nil, codeHash: "c1", createdAt: t0, expiresAt: at(600),
                attempts: 0, lastSentAt: t0)
            try await store.write { [code] in try await $0.savePendingCode(code) }
            // Attempts are claimed one at a time, up to the limit, only while the code is valid.
            for expected in 1...3 {
                let claimed = try await store.write { try await $0.claimCodeAttempt(phone: "+1", purpose: "sign_in", limit: 3, now: at(1)) }
                #expect(claimed?.attempts == expected)
            }
            #expect(try await store.write { try await $0.claimCodeAttempt(phone: "+1", purpose: "sign_in", limit: 3, now: at(1)) } == nil)
            #expect(try await store.write { try await $0.claimCodeAttempt(phone: "+1", purpose: "sign_in", limit: 9, now: at(600)) } == nil)
            #expect(try await store.write { try await $0.claimCodeAttempt(phone: "+2", purpose: "sign_in", limit: 9, now: at(1)) } == nil)
            // A new code while the old one is valid keeps its count…
            code.codeHash = "c2"
            code.userID = ann.id
            code.createdAt = at(60)
            code.lastSentAt = at(60)
            code.expiresAt = at(660)
            try await store.write { [code] in try await $0.savePendingCode(code) }
            var saved = code
            saved.attempts = 3
            #expect(try await store.read { try await $0.pendingCode(phone: "+1", purpose: "sign_in") } == saved)
            // …and one sent after it expired starts afresh.
            code.codeHash = "c3"
            code.createdAt = at(700)
            code.lastSentAt = at(700)
            code.expiresAt = at(1000)
            try await store.write { [code] in try await $0.savePendingCode(code) }
            saved = code
            #expect(try await store.read { try await $0.pendingCode(phone: "+1", purpose: "sign_in") } == saved)
            try await store.write { try await $0.deletePendingCode(phone: "+1", purpose: "sign_in") }
            #expect(try await store.read { try await $0.pendingCode(phone: "+1", purpose: "sign_in") } == nil)
            #expect(try await store.write { try await $0.deleteSession(session.id, of: ann.id) } == true)
            #expect(try await store.write { try await $0.deleteSession(session.id, of: ann.id) } == false)
        }
    }

    // MARK: Timeline

    @Test("timeline entries chain: entry n's hash is entry n+1's previous hash", arguments: Backend.all)
    func timelineChain(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let bob = try await insertUser(store)
            var appended: [TimelineEntry] = []
            for index in 1...5 {
                appended.append(
                    try await store.write {
                        try await $0.appendTimeline(ann.id, at: at(Double(index)), kind: "check_in", summary: "s\(index)", detail: "{}")
                    })
            }
            _ = try await store.write { try await $0.appendTimeline(bob.id, at: at(1), kind: "k", summary: "s", detail: "d") }
            let entries = try await store.read { try await $0.timeline(of: ann.id) }
            #expect(entries == appended)
            #expect(entries.map(\.sequence) == [1, 2, 3, 4, 5])
            #expect(entries.first?.previousHash == TimelineEntry.genesisHash)
            for (entry, next) in zip(entries, entries.dropFirst()) {
                #expect(entry.hash == next.previousHash)
                #expect(entry.hash.count == 64)
            }
            #expect(Set(entries.map(\.hash)).count == 5)
            #expect(try await store.read { try await $0.timeline(of: ann.id, after: 3) }.map(\.sequence) == [4, 5])
            #expect(try await store.read { try await $0.timeline(of: bob.id) }.first?.previousHash == TimelineEntry.genesisHash)
            await expectConstraint("unknown user") {
                try await store.write { _ = try await $0.appendTimeline(UserID(UUID()), at: t0, kind: "k", summary: "s", detail: "d") }
            }
        }
    }

    @Test("several appends in one transaction chain on, for several users; a rolled-back one leaves the head", arguments: Backend.all)
    func timelineAppendsInOneTransaction(_ backend: Backend) async throws {
        struct Refused: Error {}
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let bob = try await insertUser(store)
            _ = try await store.write { try await $0.appendTimeline(ann.id, at: at(0), kind: "k", summary: "first", detail: "") }
            try await store.write { tx in
                for index in 1...3 {
                    _ = try await tx.appendTimeline(ann.id, at: at(Double(index)), kind: "k", summary: "ann \(index)", detail: "")
                    _ = try await tx.appendTimeline(bob.id, at: at(Double(index)), kind: "k", summary: "bob \(index)", detail: "")
                }
            }
            await #expect(throws: Refused.self) {
                try await store.write { tx in
                    _ = try await tx.appendTimeline(ann.id, at: at(9), kind: "k", summary: "rolled back", detail: "")
                    throw Refused()
                }
            }
            let next = try await store.write { try await $0.appendTimeline(ann.id, at: at(10), kind: "k", summary: "next", detail: "") }
            let anns = try await store.read { try await $0.timeline(of: ann.id) }
            #expect(anns.map(\.summary) == ["first", "ann 1", "ann 2", "ann 3", "next"])
            #expect(anns.map(\.sequence) == [1, 2, 3, 4, 5])
            #expect(next.previousHash == anns[3].hash)
            #expect(zip(anns, anns.dropFirst()).allSatisfy { $0.hash == $1.previousHash })
            let bobs = try await store.read { try await $0.timeline(of: bob.id) }
            #expect(bobs.map(\.sequence) == [1, 2, 3])
            #expect(bobs.first?.previousHash == TimelineEntry.genesisHash)
            #expect(zip(bobs, bobs.dropFirst()).allSatisfy { $0.hash == $1.previousHash })
        }
    }

    @Test("hundreds of appends in one transaction are written in groups; the transaction reads its own", arguments: Backend.all)
    func manyTimelineAppendsInOneTransaction(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let users = [try await insertUser(store), try await insertUser(store), try await insertUser(store)]
            let gone = try await insertUser(store)
            let seenInside = try await store.write { tx in
                for index in 0..<301 {
                    _ = try await tx.appendTimeline(
                        users[index % 3].id, at: at(Double(index)), kind: "k", summary: "\(index)", detail: "{}")
                }
                _ = try await tx.appendTimeline(gone.id, at: at(0), kind: "k", summary: "then deleted", detail: "")
                try await tx.deleteUser(gone.id)
                return try await tx.timeline(of: users[0].id).count
            }
            #expect(seenInside == 101)
            for (offset, user) in users.enumerated() {
                let entries = try await store.read { try await $0.timeline(of: user.id) }
                #expect(entries.count == (offset == 0 ? 101 : 100))
                #expect(entries.map(\.sequence) == Array(1...entries.count))
                #expect(entries.map(\.summary) == stride(from: offset, to: 301, by: 3).map(String.init))
                #expect(entries.first?.previousHash == TimelineEntry.genesisHash)
                #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.hash == $1.previousHash })
            }
            #expect(try await store.read { try await $0.timeline(of: gone.id) }.isEmpty)
            let next = try await store.write {
                try await $0.appendTimeline(users[1].id, at: at(999), kind: "k", summary: "next", detail: "")
            }
            #expect(next.sequence == 101)
        }
    }

    @Test("concurrent timeline appends to one user keep one unbroken chain", arguments: Backend.all)
    func concurrentTimeline(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<4 {
                    group.addTask {
                        for index in 0..<10 {
                            try await store.write {
                                _ = try await $0.appendTimeline(
                                    ann.id, at: at(Double(index)), kind: "k", summary: "\(task)-\(index)", detail: "")
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let entries = try await store.read { try await $0.timeline(of: ann.id) }
            #expect(entries.map(\.sequence) == Array(1...40))
            #expect(entries.first?.previousHash == TimelineEntry.genesisHash)
            #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.hash == $1.previousHash })
        }
    }

    @Test("concurrent writes: one that fails changes nothing, the others all commit", arguments: Backend.all)
    func concurrentWritesWithFailures(_ backend: Backend) async throws {
        struct Refused: Error {}
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            // 30 writers on one person's timeline: each waits for the one before it (the chain's
            // head is locked), so more would only test how long a lease may wait on a loaded
            // host (60 once exceeded the 10 s lease timeout on PostgreSQL in a full run).
            let writers = 30
            let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for index in 0..<writers {
                    group.addTask {
                        do {
                            try await store.write { tx in
                                _ = try await tx.appendTimeline(
                                    ann.id, at: at(Double(index)), kind: "k", summary: "\(index)", detail: "")
                                if index % 3 == 0 { throw Refused() }
                                if index % 3 == 1 {
                                    // A failing statement after a successful one, in the same transaction.
                                    try await tx.insertUser(ann, deadline: t0, nextActionAt: nil)
                                }
                            }
                            return (index, true)
                        } catch is Refused {
                            return (index, false)
                        } catch let error as StoreError {
                            guard case .constraint = error else { throw error }
                            return (index, false)
                        }
                    }
                }
                var all: [Int: Bool] = [:]
                for try await (index, committed) in group { all[index] = committed }
                return all
            }
            #expect(outcomes.count == writers)
            #expect(outcomes.filter(\.value).map(\.key).sorted() == (0..<writers).filter { $0 % 3 == 2 })
            let entries = try await store.read { try await $0.timeline(of: ann.id) }
            #expect(entries.map(\.sequence) == Array(1...(writers / 3)))
            #expect(Set(entries.map(\.summary)) == Set((0..<writers).filter { $0 % 3 == 2 }.map(String.init)))
            #expect(entries.first?.previousHash == TimelineEntry.genesisHash)
            #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.hash == $1.previousHash })
        }
    }

    // MARK: Deliveries

    @Test("a delivery is read with its notification in one go", arguments: Backend.all)
    func deliveryWithNotification(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let n = makeNotification(to: ann.id, type: .incidentOpened, at: at(0))
            let d = makeDelivery(n, address: "a")
            try await store.write { db in
                _ = try await db.insertNotification(n)
                try await db.insertDelivery(d, fallbackRank: 2, dueAt: at(0))
            }
            let found = try #require(try await store.read { try await $0.deliveryWithNotification(d.id) })
            #expect(found.delivery == (try await store.read { try await $0.delivery(d.id) })?.0)
            #expect(found.fallbackRank == 2)
            #expect(found.notification == n)
            #expect(try await store.read { try await $0.deliveryWithNotification(DeliveryID(UUID())) } == nil)
        }
    }

    @Test("deliveries to record are read together, with their recipients' names", arguments: Backend.all)
    func deliveriesToRecord(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            var named = makeUser()
            named.firstName = "Ann"
            named.lastName = "Lee"
            let ann = try await insertUser(store, named)
            let bo = try await insertUser(store)
            let toAnn = makeNotification(to: ann.id, type: .incidentOpened, at: at(0))
            let toBo = makeNotification(to: bo.id, at: at(0))
            let (a, b) = (makeDelivery(toAnn, address: "a"), makeDelivery(toBo, address: "b"))
            try await store.write { db in
                _ = try await db.insertNotification(toAnn)
                _ = try await db.insertNotification(toBo)
                try await db.insertDelivery(a, fallbackRank: 0, dueAt: at(0))
                try await db.insertDelivery(b, fallbackRank: -1, dueAt: at(0))
            }
            let unknown = DeliveryID(UUID())
            let found = try await store.read { try await $0.deliveriesToRecord([a.id, unknown, b.id]) }
            #expect(Set(found.keys) == [a.id, b.id])
            #expect(found[a.id]?.notification == toAnn)
            #expect(found[a.id]?.recipient == .init(firstName: "Ann", lastName: "Lee", phone: ann.phone))
            #expect(found[b.id]?.recipient == .init(firstName: "", lastName: "", phone: bo.phone))
            #expect(found[b.id]?.fallbackRank == -1)
            #expect(try await store.read { try await $0.deliveriesToRecord([]) }.isEmpty)
        }
    }

    @Test("a claimed delivery is not claimed again until its lease expires", arguments: Backend.all)
    func deliveryLeases(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let n = makeNotification(to: ann.id, type: .incidentOpened, at: at(0))
            let due = (0..<3).map { makeDelivery(n, address: "a\($0)") }
            try await store.write { db in
                _ = try await db.insertNotification(n)
                for (rank, d) in due.enumerated() {
                    try await db.insertDelivery(d, fallbackRank: rank, dueAt: at(Double(rank)))
                }
                // Not due yet, and finished: never claimed below.
                try await db.insertDelivery(makeDelivery(n, address: "later"), fallbackRank: 9, dueAt: at(1000))
                try await db.insertDelivery(makeDelivery(n, address: "done"), fallbackRank: 9, dueAt: nil)
            }
            #expect(try await store.read { try await $0.pendingDeliveryCount() } == 4)

            let now = at(10)
            let first = try await store.write {
                try await $0.claimDueDeliveries(now: now, limit: 2, owner: "w1", leaseUntil: now + 30)
            }
            #expect(first.map(\.delivery.id) == [due[0].id, due[1].id])
            #expect(first.map(\.fallbackRank) == [0, 1])
            #expect(first.first?.notification == n)
            let second = try await store.write {
                try await $0.claimDueDeliveries(now: now + 1, limit: 10, owner: "w2", leaseUntil: now + 31)
            }
            #expect(second.map(\.delivery.id) == [due[2].id])
            let third = try await store.write {
                try await $0.claimDueDeliveries(now: now + 29, limit: 10, owner: "w3", leaseUntil: now + 60)
            }
            #expect(third.isEmpty)

            // w1 finishes one; its other lease expires and is taken over.
            try await store.write {
                try await $0.updateDelivery(
                    due[0].id, status: .sent, reason: nil, attempts: 1, providerID: "p-1", nextAttemptAt: nil, at: now + 2)
            }
            let takeover = try await store.write {
                try await $0.claimDueDeliveries(now: now + 30.001, limit: 10, owner: "w4", leaseUntil: now + 90)
            }
            #expect(takeover.map(\.delivery.id) == [due[1].id])
            let sent = try #require(try await store.read { try await $0.delivery(due[0].id) })
            #expect(sent.0.status == .sent)
            #expect(sent.0.attempts == 1)
            #expect(try await store.read { try await $0.delivery(providerID: "p-1") }?.id == due[0].id)
            #expect(try await store.read { try await $0.deliveries(notification: n.id) }.count == 5)
            #expect(try await store.read { try await $0.pendingDeliveryCount() } == 3)
        }
    }

    @Test("concurrent claimers never get the same delivery", arguments: Backend.all)
    func concurrentClaims(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let n = makeNotification(to: ann.id, at: at(0))
            try await store.write { db in
                _ = try await db.insertNotification(n)
                for index in 0..<40 {
                    try await db.insertDelivery(makeDelivery(n, address: "\(index)"), fallbackRank: 0, dueAt: at(Double(index) / 100))
                }
            }
            let now = at(10)
            let claimed = try await withThrowingTaskGroup(of: [DeliveryID].self) { group in
                for worker in 0..<6 {
                    group.addTask {
                        var mine: [DeliveryID] = []
                        while true {
                            let batch = try await store.write {
                                try await $0.claimDueDeliveries(now: now, limit: 3, owner: "w\(worker)", leaseUntil: now + 60)
                            }
                            if batch.isEmpty { return mine }
                            mine += batch.map(\.delivery.id)
                        }
                    }
                }
                var all: [DeliveryID] = []
                for try await ids in group { all += ids }
                return all
            }
            #expect(claimed.count == 40)
            #expect(Set(claimed).count == 40)
        }
    }

    // MARK: Deleting, rollback, concurrency

    @Test("deleting a user removes everything of theirs", arguments: Backend.all)
    func deleteCascades(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let bob = try await insertUser(store)
            let incident = Incident(id: IncidentID(UUID()), userID: ann.id, kind: .manualAlert, openedAt: t0, dueAt: t0)
            let toAnn = makeNotification(to: ann.id, at: at(1))
            let aboutAnn = makeNotification(to: bob.id, type: .incidentOpened, subject: ann.id, at: at(2))
            try await store.write { db in
                _ = try await db.insertCheckIn(CheckIn(id: CheckInID(UUID()), userID: ann.id, at: t0, source: .app))
                try await db.insertLink(LinkRecord(userID: ann.id, contactID: bob.id, roles: .responder, addedAt: t0))
                try await db.insertPing(Ping(id: PingID(UUID()), fromUserID: bob.id, toUserID: ann.id, sentAt: t0))
                _ = try await db.insertIncident(incident)
                try await db.addIncidentRecipient(incident.id, userID: bob.id, at: t0)
                _ = try await db.insertNotification(toAnn)
                _ = try await db.insertNotification(aboutAnn)
                try await db.insertDelivery(makeDelivery(toAnn), fallbackRank: 0, dueAt: t0)
                _ = try await db.appendTimeline(ann.id, at: t0, kind: "k", summary: "s", detail: "d")
                try await db.insertSession(
                    Session(id: SessionID(UUID()), userID: ann.id, kind: .session, name: "n", createdAt: t0, lastUsedAt: t0),
                    tokenHash: "h")
                try await db.insertChannel(
                    Channel(
                        id: ChannelID(UUID()), userID: ann.id, kind: .log, address: "x", priority: 0, categories: [.alerts], createdAt: t0))
            }
            try await store.write { try await $0.deleteUser(ann.id) }

            #expect(try await store.read { try await $0.user(ann.id) } == nil)
            for table in ["check_ins", "pings", "incidents", "incident_recipients", "deliveries", "timeline", "sessions", "channels"] {
                let count = try await store.read { try await $0.executor.queryFirst("SELECT COUNT(*) AS n FROM \(table)")?.int("n") }
                #expect(count == 0, "table \(table)")
            }
            #expect(try await store.read { try await $0.links(of: bob.id) } == [])
            // Bob keeps his notification, no longer pointing at Ann.
            let kept = try await store.read { try await $0.notification(aboutAnn.id) }
            #expect(kept != nil)
            #expect(kept?.subjectUserID == nil)
            #expect(try await store.read { try await $0.notification(toAnn.id) } == nil)
            #expect(try await store.read { try await $0.user(bob.id) } != nil)
        }
    }

    @Test("a transaction that throws commits nothing", arguments: Backend.all)
    func rollback(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            // The body's own error comes back unchanged, and nothing it wrote remains.
            await #expect(throws: Boom.self) {
                try await store.write { db in
                    try await insertUserInside(db)
                    _ = try await db.insertCheckIn(CheckIn(id: CheckInID(UUID()), userID: ann.id, at: t0, source: .app))
                    throw Boom()
                }
            }
            // A failing statement rolls back the statements before it.
            await expectConstraint {
                try await store.write { db in
                    _ = try await db.insertCheckIn(CheckIn(id: CheckInID(UUID()), userID: ann.id, at: t0, source: .app))
                    try await db.insertLink(LinkRecord(userID: ann.id, contactID: ann.id, roles: .responder, addedAt: t0))
                }
            }
            #expect(try await store.read { try await $0.userCount() } == 1)
            #expect(try await store.read { try await $0.checkIns(of: ann.id, before: nil, limit: 10) } == [])
            // The database is still usable after both.
            #expect(
                try await store.write { try await $0.insertCheckIn(CheckIn(id: CheckInID(UUID()), userID: ann.id, at: t0, source: .app)) })
        }
    }

    @Test("concurrent writers: 8 tasks × 50 transactions", arguments: Backend.all)
    func concurrentWriters(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let now = Date(milliseconds: 1_760_000_040_000)
            let counts = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var seen: [Int] = []
                        for _ in 0..<50 {
                            seen.append(
                                try await store.write { db in
                                    let hits = try await db.hitRateLimit(bucket: "shared", now: now, window: 3600)
                                    let inserted = try await db.insertCheckIn(
                                        CheckIn(id: CheckInID(UUID()), userID: ann.id, at: at(Double(hits)), source: .app))
                                    #expect(inserted)
                                    try await db.db.execute("UPDATE users SET escalation_step = escalation_step + 1 WHERE id = ?", ann.id)
                                    return hits
                                })
                        }
                        return seen
                    }
                }
                var all: [Int] = []
                for try await seen in group { all += seen }
                return all
            }
            // Every transaction saw a different count: no lost updates, no duplicates.
            #expect(counts.sorted() == Array(1...400))
            let checkIns = try await store.read { try await $0.checkIns(of: ann.id, before: nil, limit: 1000) }
            #expect(checkIns.count == 400)
            #expect(try await store.read { try await $0.escalationState(ann.id) }?.step == 400)
            let hits = try await store.read {
                try await $0.executor.queryFirst("SELECT hits FROM rate_limits WHERE bucket = ?", "shared")?.int("hits")
            }
            #expect(hits == 400)
        }
    }

    @Test("reads see committed writes and never uncommitted ones", arguments: Backend.all)
    func readIsolation(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let (inside, outside) = try await store.write { db in
                try await db.setEscalation(ann.id, step: 7, nextActionAt: nil)
                let inside = try await db.escalationState(ann.id)?.step
                let outside = try await store.read { try await $0.escalationState(ann.id) }?.step
                return (inside, outside)
            }
            #expect(inside == 7)
            #expect(outside == 0)
            #expect(try await store.read { try await $0.escalationState(ann.id) }?.step == 7)
        }
    }

    // MARK: PostgreSQL specifics

    @Test("ping answers true while open", arguments: Backend.all)
    func ping(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            #expect(await database.ping())
        }
    }

    @Test("an unreachable PostgreSQL fails fast with .unavailable")
    func unreachable() async throws {
        // A closed local port (refused at once) and an unroutable address (bounded by connect_timeout).
        for url in [
            "postgres://u:p@127.0.0.1:1/db?sslmode=disable",
            "postgres://u:p@10.255.255.1:5432/db?sslmode=disable&connect_timeout=1",
        ] {
            let started = ContinuousClock.now
            do {
                let database = try await PostgresDatabase.connect(url: url, logger: nil)
                await database.close()
                Issue.record("connected to \(url)")
            } catch let error as StoreError {
                guard case .unavailable = error else {
                    Issue.record("expected .unavailable, got \(error)")
                    continue
                }
            }
            #expect(ContinuousClock.now - started < .seconds(30), "\(url)")
        }
    }

    @Test("a server that accepts but never answers fails within connect_timeout")
    func silentServer() async throws {
        // A listening socket nobody accepts on: the kernel completes the TCP handshake, then
        // the startup message is never answered.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        #expect(bound == 0)
        #expect(listen(fd, 16) == 0)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let started = ContinuousClock.now
        do {
            let database = try await PostgresDatabase.connect(
                url: "postgres://u:p@127.0.0.1:\(port)/db?sslmode=disable&connect_timeout=1", logger: nil)
            await database.close()
            Issue.record("connected to a silent server")
        } catch let error as StoreError {
            guard case .unavailable = error else { Issue.record("expected .unavailable, got \(error)"); return }
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(900))
        #expect(elapsed < .seconds(30))
    }

    @Test("a wrong password or database fails fast with .unavailable", arguments: Backend.postgresOnly)
    func wrongCredentials(_ backend: Backend) async throws {
        let base = try #require(Backend.postgresURL)
        var wrongPassword = try #require(URLComponents(string: base))
        wrongPassword.password = "definitely-wrong"
        var wrongDatabase = try #require(URLComponents(string: base))
        wrongDatabase.path = "/no_such_database_here"
        for url in [wrongPassword.string, wrongDatabase.string].compactMap({ $0 }) {
            let started = ContinuousClock.now
            do {
                let database = try await PostgresDatabase.connect(url: url, logger: nil)
                await database.close()
                Issue.record("connected to \(url)")
            } catch let error as StoreError {
                guard case .unavailable = error else {
                    Issue.record("expected .unavailable, got \(error)")
                    continue
                }
            }
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }

    @Test("LISTEN/NOTIFY carries events across instances", arguments: Backend.postgresOnly)
    func listenNotify(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, test in
            let listener = try #require(database as? PostgresDatabase)
            let sender = try #require(try await test.open() as? PostgresDatabase)
            let events = try await listener.listen(channel: "user.events")
            let other = try await listener.listen(channel: "other")
            try await sender.notify(channel: "user.events", payload: "one")
            try await sender.notify(channel: "other", payload: "not for the first")
            try await sender.notify(channel: "user.events", payload: "two ' \" ?")
            // A notification inside a write is delivered only if it commits.
            _ = try? await sender.write { db in
                try await db.execute("SELECT pg_notify(?, ?)", "user.events", "rolled back")
                throw Boom()
            }
            _ = try await sender.write { db in
                try await db.execute("SELECT pg_notify(?, ?)", "user.events", "committed")
            }
            var received: [String] = []
            for await payload in events {
                received.append(payload)
                if received.count == 3 { break }
            }
            #expect(received == ["one", "two ' \" ?", "committed"])
            var otherIterator = other.makeAsyncIterator()
            #expect(await otherIterator.next() == "not for the first")
            await #expect(throws: StoreError.self) { try await sender.notify(channel: "bad\"name", payload: "") }
            await sender.close()
        }
    }

    @Test("placeholders are numbered outside quotes and comments; scripts split at top-level semicolons")
    func placeholders() {
        #expect(PostgresSQLText.numbered("SELECT ? , ?").sql == "SELECT $1 , $2")
        let tricky = "SELECT '?''?', \"a?\", E'\\'?', $$?$$, $t$ ? $t$, ? -- ?\n/* ? /* ? */ ? */ FROM x WHERE y = ?"
        let numbered = PostgresSQLText.numbered(tricky)
        #expect(numbered.count == 2)
        #expect(numbered.sql.hasSuffix("WHERE y = $2"))
        #expect(numbered.sql.contains(", $1 -- ?"))
        #expect(PostgresSQLText.numbered("SELECT x$1 FROM t WHERE a = ?").count == 1)
        #expect(
            PostgresSQLText.split("CREATE TABLE a (x TEXT DEFAULT ';');\n-- c;\nCREATE INDEX i ON a (x);  ;") == [
                "CREATE TABLE a (x TEXT DEFAULT ';')", "-- c;\nCREATE INDEX i ON a (x)",
            ])
        #expect(PostgresSQLText.split("  -- only a comment\n") == [])
        #expect(PostgresDatabase.mustRunOutsideTransaction("create database t_1"))
        #expect(PostgresDatabase.mustRunOutsideTransaction("CREATE INDEX CONCURRENTLY i ON t (x)"))
        #expect(!PostgresDatabase.mustRunOutsideTransaction("CREATE TABLE t (x TEXT)"))
    }

    @Test("postgres URLs parse")
    func urls() throws {
        let url = try PostgresURL(
            "postgresql://us%40er:p%3Ass@db.example:6543/app?sslmode=require&connect_timeout=2&statement_timeout=0&pool_max_conns=7")
        #expect(url.username == "us@er")
        #expect(url.password == "p:ss")
        #expect(url.host == "db.example")
        #expect(url.port == 6543)
        #expect(url.database == "app")
        #expect(url.sslMode == .require)
        #expect(url.connectTimeout == .seconds(2))
        #expect(url.statementTimeout == nil)
        #expect(url.maximumConnections == 7)
        let plain = try PostgresURL("postgres://me@localhost")
        #expect(plain.port == 5432)
        #expect(plain.database == nil)
        #expect(plain.password == nil)
        #expect(plain.sslMode == .prefer)
        // A server elsewhere gets TLS unless the URL says otherwise: no password in clear.
        #expect(try PostgresURL("postgres://me@db.example/app").sslMode == .require)
        #expect(try PostgresURL("postgres://me@127.0.0.1/app").sslMode == .prefer)
        #expect(try PostgresURL("postgres://me@[::1]/app").sslMode == .prefer)
        #expect(try PostgresURL("postgres://me@db.example/app?sslmode=disable").sslMode == .disable)
        #expect(throws: StoreError.self) { try PostgresURL("mysql://x@y/z") }
        #expect(throws: StoreError.self) { try PostgresURL("postgres://x@y/z?sslmode=sometimes") }
    }
}

private func insertUserInside(_ db: StoreTransaction) async throws {
    try await db.insertUser(makeUser(), deadline: t0, nextActionAt: nil)
}
