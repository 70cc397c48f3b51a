import Foundation
import LifeSignalModels
import Testing

@_spi(Testing) @testable import LifeSignalStore

/// The store contract for users, check-ins, links and pings: every test runs against SQLite (a real file) and, when
/// `LIFESIGNAL_TEST_POSTGRES_URL` is set, against PostgreSQL (a fresh database per test).
@Suite("Store contract: people", .timeLimit(.minutes(2)))
struct StorePeopleTests {
    // MARK: Users

    /// The morning rush: a reminder due before an alert is claimed after it. Three people are
    /// due at once: a reminder (half an hour before her deadline), a last call (at his
    /// deadline) and an alert (past hers); one not yet due is never claimed.
    @Test("engine claims: whoever is at or past the deadline comes before a reminder", arguments: Backend.all)
    func overdueFirst(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let (reminder, lastCall, alert, notYet) = (makeUser(), makeUser(), makeUser(), makeUser())
            try await store.write { tx in
                try await tx.people.insert(reminder, deadline: at(3600), nextActionAt: at(1800))
                try await tx.people.insert(lastCall, deadline: at(3000), nextActionAt: at(3000))
                try await tx.people.insert(alert, deadline: at(2000), nextActionAt: at(2600))
                try await tx.people.insert(notYet, deadline: at(9000), nextActionAt: at(7200))
            }
            let now = at(3600)
            let claim = { @Sendable (limit: Int, owner: String) in
                try await store.write { try await $0.engine.claimDueUsers(now: now, limit: limit, owner: owner, leaseUntil: at(3700)) }
            }
            #expect(try await claim(1, "a") == [alert.id])
            #expect(try await claim(3, "b") == [lastCall.id, reminder.id])
            #expect(try await claim(3, "c") == [])
        }
    }

    @Test("users: insert, update, lookups, avatar, escalation", arguments: Backend.all)
    func users(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            var user = makeUser(phone: "+14155550100", schedule: .daily(hour: 9, minute: 30, timeZone: "Europe/Paris"))
            try await insertUser(store, user)
            let other = try await insertUser(store)
            let id = user.id
            let firstCode = user.contactCode
            var expected = user

            let byID = try await store.read { try await $0.people.user(id) }
            #expect(byID == expected)
            #expect(try await store.read { try await $0.people.user(phone: "+14155550100") } == expected)
            #expect(try await store.read { try await $0.people.user(contactCode: firstCode) } == expected)
            #expect(try await store.read { try await $0.people.user(phone: "+10000000000") } == nil)
            #expect(try await store.read { try await $0.people.user(UserID(UUID())) } == nil)
            let both = try await store.read { try await $0.people.users([id, other.id, UserID(UUID())]) }
            #expect(both == [id: expected, other.id: other])
            #expect(try await store.read { try await $0.people.count() } == 2)

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
                try await db.people.setEscalation(user.id, step: 1, nextActionAt: at(50))
                try await db.people.update(user, deadline: at(3600), escalationStep: 3, nextActionAt: at(3000))
            }
            #expect(try await store.read { try await $0.people.user(id) } == expected)
            var state = try #require(try await store.read { try await $0.people.escalationState(id) })
            #expect(state.deadline == at(3600))
            #expect(state.step == 3)
            #expect(state.nextActionAt == at(3000))
            try await store.write { [user] in
                try await $0.people.update(user, deadline: at(7200), escalationStep: 0, nextActionAt: nil)
            }
            state = try #require(try await store.read { try await $0.people.escalationState(id) })
            #expect(state.step == 0)
            #expect(state.nextActionAt == nil)

            // A check-in writes its own columns only: a name changed since the caller's read
            // (a concurrent profile edit) stays.
            let edited = renamed(user)
            try await store.write { try await $0.people.update(edited, deadline: at(7200), escalationStep: 0, nextActionAt: nil) }
            try await store.write {
                try await $0.people.recordCheckIn(of: id, at: at(20), deadline: at(3620), escalationStep: 1, nextActionAt: at(3000))
            }
            let checkedIn = try #require(try await store.read { try await $0.people.user(id) })
            #expect(checkedIn.firstName == "Grace")
            #expect(checkedIn.lastCheckInAt == at(20))
            state = try #require(try await store.read { try await $0.people.escalationState(id) })
            #expect(state.deadline == at(3620))
            #expect(state.step == 1)
            #expect(state.nextActionAt == at(3000))
            await #expect(throws: StoreError.self) {
                try await store.write {
                    try await $0.people.recordCheckIn(
                        of: UserID(UUID()), at: at(20), deadline: at(3620), escalationStep: 0, nextActionAt: nil)
                }
            }
            try await store.write { [user] in try await $0.people.update(user, deadline: at(7200), escalationStep: 0, nextActionAt: nil) }

            let avatar: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0, 0xFF, 0x00, 0x10]
            try await store.write { try await $0.people.setAvatar(id, bytes: avatar, contentType: "image/png") }
            let stored = try #require(try await store.read { try await $0.people.avatar(id) })
            #expect(stored.bytes == avatar)
            #expect(stored.contentType == "image/png")
            #expect(try await store.read { try await $0.people.user(id) }?.hasAvatar == true)
            try await store.write { try await $0.people.setAvatar(id, bytes: nil, contentType: nil) }
            #expect(try await store.read { try await $0.people.avatar(id) } == nil)

            try await store.write { try await $0.people.setContactCode(id, code: "feedface") }
            #expect(try await store.read { try await $0.people.user(contactCode: "feedface") }?.id == id)
            #expect(try await store.read { try await $0.people.user(contactCode: firstCode) } == nil)
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
                try await store.write { try await $0.people.setContactCode(second.id, code: "code-1") }
            }
            await expectConstraint("phone taken") {
                var changed = second
                changed.phone = first.phone
                try await store.write { [changed] in try await $0.people.update(changed, deadline: t0, escalationStep: 0, nextActionAt: nil)
                }
            }
            await expectConstraint("no such user") {
                try await store.write { try await $0.people.update(makeUser(), deadline: t0, escalationStep: 0, nextActionAt: nil) }
            }
            // The failed writes left nothing behind.
            #expect(try await store.read { try await $0.people.count() } == 2)
            #expect(try await store.read { try await $0.people.user(second.id) } == second)
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
            #expect(try await store.write { try await $0.checkIns.insert(first) } == true)
            let again = CheckIn(id: id, userID: ann.id, at: at(2), source: .web)
            #expect(try await store.write { try await $0.checkIns.insert(again) } == false)
            // The same id from another user is another check-in.
            let bobs = CheckIn(id: id, userID: bob.id, at: at(3), source: .responder, recordedBy: ann.id)
            #expect(try await store.write { try await $0.checkIns.insert(bobs) } == true)

            #expect(try await store.read { try await $0.checkIns.checkIn(id, of: ann.id) } == first)
            #expect(try await store.read { try await $0.checkIns.checkIn(id, of: bob.id) } == bobs)
            #expect(try await store.read { try await $0.checkIns.list(of: ann.id, before: nil, limit: 10) } == [first])

            for second in 10..<15 {
                _ = try await store.write {
                    try await $0.checkIns.insert(CheckIn(id: CheckInID(UUID()), userID: ann.id, at: at(Double(second)), source: .cli))
                }
            }
            let page = try await store.read { try await $0.checkIns.list(of: ann.id, before: at(14), limit: 3) }
            #expect(page.map(\.at) == [at(13), at(12), at(11)])
            await expectConstraint("unknown user") {
                _ = try await store.write {
                    try await $0.checkIns.insert(CheckIn(id: CheckInID(UUID()), userID: UserID(UUID()), at: t0, source: .app))
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
                try await tx.links.insert(LinkRecord(userID: ann.id, contactID: cid.id, roles: [.responder, .dependent], addedAt: at(2)))
                try await tx.links.insert(LinkRecord(userID: ann.id, contactID: bob.id, roles: .responder, addedAt: at(1)))
                try await tx.links.insert(LinkRecord(userID: ann.id, contactID: dee.id, roles: .dependent, addedAt: at(0)))
            }
            let responders = try await store.read { try await $0.links.responders(of: ann.id) }
            #expect(responders.map(\.id) == [bob.id, cid.id])
            #expect(responders.first?.firstName == "Bob")
            #expect(responders.first?.phone == bob.phone)
            #expect(responders.map(\.id) == (try await store.read { try await $0.links.responderIDs(of: ann.id) }))
            #expect(try await store.read { try await $0.links.responders(of: dee.id) }.map(\.id) == [ann.id])
            #expect(try await store.read { try await $0.links.responders(of: bob.id) }.isEmpty)
        }
    }

    @Test("links are mirrored, never to oneself, never twice", arguments: Backend.all)
    func links(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let bob = try await insertUser(store)
            let cid = try await insertUser(store)
            try await store.write {
                try await $0.links.insert(LinkRecord(userID: ann.id, contactID: bob.id, roles: .responder, addedAt: at(1)))
            }
            #expect(try await store.read { try await $0.links.link(userID: ann.id, contactID: bob.id) }?.roles == .responder)
            #expect(try await store.read { try await $0.links.link(userID: bob.id, contactID: ann.id) }?.roles == .dependent)
            #expect(try await store.read { try await $0.links.responderIDs(of: ann.id) } == [bob.id])
            #expect(try await store.read { try await $0.links.responderIDs(of: bob.id) } == [])

            await expectConstraint("self link") {
                try await store.write {
                    try await $0.links.insert(LinkRecord(userID: cid.id, contactID: cid.id, roles: .responder, addedAt: t0))
                }
            }
            await expectConstraint("duplicate") {
                try await store.write {
                    try await $0.links.insert(LinkRecord(userID: ann.id, contactID: bob.id, roles: .dependent, addedAt: t0))
                }
            }
            await expectConstraint("duplicate from the other side") {
                try await store.write {
                    try await $0.links.insert(LinkRecord(userID: bob.id, contactID: ann.id, roles: .responder, addedAt: t0))
                }
            }
            await expectConstraint("no roles") {
                try await store.write {
                    try await $0.links.insert(LinkRecord(userID: ann.id, contactID: cid.id, roles: [], addedAt: t0))
                }
            }
            #expect(try await store.read { try await $0.links.all(of: cid.id) } == [])

            try await store.write {
                try await $0.links.updateRoles(userID: bob.id, contactID: ann.id, roles: [.responder, .dependent])
            }
            #expect(try await store.read { try await $0.links.link(userID: ann.id, contactID: bob.id) }?.roles == [.responder, .dependent])
            try await store.write { try await $0.links.delete(userID: bob.id, contactID: ann.id) }
            #expect(try await store.read { try await $0.links.all(of: ann.id) } == [])
            #expect(try await store.read { try await $0.links.all(of: bob.id) } == [])
        }
    }

    // MARK: Pings

    @Test("one pending ping per pair", arguments: Backend.all)
    func pings(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let bob = try await insertUser(store)
            let first = Ping(id: PingID(UUID()), fromUserID: ann.id, toUserID: bob.id, sentAt: at(1))
            try await store.write { try await $0.pings.insert(first) }
            await expectConstraint("second pending ping") {
                try await store.write {
                    try await $0.pings.insert(Ping(id: PingID(UUID()), fromUserID: ann.id, toUserID: bob.id, sentAt: at(2)))
                }
            }
            // The other direction is another pair.
            let back = Ping(id: PingID(UUID()), fromUserID: bob.id, toUserID: ann.id, sentAt: at(3))
            try await store.write { try await $0.pings.insert(back) }
            #expect(try await store.read { try await $0.pings.pending(from: ann.id, to: bob.id) } == first)
            #expect(try await store.read { try await $0.pings.pending(involving: ann.id) } == [first, back])

            #expect(try await store.write { try await $0.pings.answer(first.id, at: at(4)) } == true)
            #expect(try await store.write { try await $0.pings.answer(first.id, at: at(5)) } == false)
            #expect(try await store.write { try await $0.pings.clear(first.id, at: at(5)) } == false)
            #expect(try await store.read { try await $0.pings.ping(first.id) }?.answeredAt == at(4))
            #expect(try await store.read { try await $0.pings.pending(from: ann.id, to: bob.id) } == nil)
            // Once answered, a new ping may be sent.
            let next = Ping(id: PingID(UUID()), fromUserID: ann.id, toUserID: bob.id, sentAt: at(6))
            try await store.write { try await $0.pings.insert(next) }
            #expect(try await store.write { try await $0.pings.clear(next.id, at: at(7)) } == true)
            #expect(try await store.read { try await $0.pings.pending(involving: ann.id) } == [back])
        }
    }
}
