import Foundation
import LifeSignalModels
import Testing

@_spi(Testing) @testable import LifeSignalStore

/// The store contract for rate limits, sessions and sign-in codes: every test runs against SQLite (a real file) and, when
/// `LIFESIGNAL_TEST_POSTGRES_URL` is set, against PostgreSQL (a fresh database per test).
@Suite("Store contract: sessions and limits", .timeLimit(.minutes(2)))
struct StoreSessionTests {
    // MARK: Rate limits, sessions, codes

    @Test("rate limits count hits per fixed window", arguments: Backend.all)
    func rateLimits(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let window: TimeInterval = 60
            let start = Date(milliseconds: 1_760_000_040_000)  // a window boundary
            var hits: [Int] = []
            for offset in [0.0, 10, 59.9] {
                hits.append(try await store.write { try await $0.rateLimits.hit(bucket: "sms:+1", now: start + offset, window: window) })
            }
            #expect(hits == [1, 2, 3])
            #expect(try await store.write { try await $0.rateLimits.hit(bucket: "sms:+2", now: start, window: window) } == 1)
            // The next window starts over.
            #expect(try await store.write { try await $0.rateLimits.hit(bucket: "sms:+1", now: start + 60, window: window) } == 1)
            #expect(try await store.write { try await $0.rateLimits.hit(bucket: "sms:+1", now: start + 61, window: window) } == 2)
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
            try await store.write { try await $0.sessions.insert(session, tokenHash: "hash-1") }
            // The one-statement read every request starts with answers the same session and the
            // whole person (both tables have `id` and `created_at`), and nothing for another hash.
            let joined = try await store.sessionWithUser(tokenHash: "hash-1")
            #expect(joined?.session == session)
            #expect(joined?.user == (try await store.read { try await $0.people.user(ann.id) }))
            #expect(try await store.sessionWithUser(tokenHash: "hash-2") == nil)
            await expectConstraint("same token hash") {
                try await store.write {
                    try await $0.sessions.insert(
                        Session(id: SessionID(UUID()), userID: ann.id, kind: .session, name: "x", createdAt: t0, lastUsedAt: t0),
                        tokenHash: "hash-1")
                }
            }
            try await store.write { try await $0.sessions.touch(session.id, at: at(30)) }
            #expect(try await store.sessionWithUser(tokenHash: "hash-1")?.session.lastUsedAt == at(1))
            try await store.write { try await $0.sessions.touch(session.id, at: at(120)) }
            #expect(try await store.sessionWithUser(tokenHash: "hash-1")?.session.lastUsedAt == at(120))

            var code = PendingCode(
                phone: "+1", purpose: "sign_in", userID: nil, codeHash: "c1", createdAt: t0, expiresAt: at(600),
                attempts: 0, lastSentAt: t0)
            try await store.write { [code] in try await $0.sessions.savePendingCode(code) }
            // Attempts are claimed one at a time, up to the limit, only while the code is valid.
            for expected in 1...3 {
                let claimed = try await store.write {
                    try await $0.sessions.claimCodeAttempt(phone: "+1", purpose: "sign_in", limit: 3, now: at(1))
                }
                #expect(claimed?.attempts == expected)
            }
            #expect(
                try await store.write { try await $0.sessions.claimCodeAttempt(phone: "+1", purpose: "sign_in", limit: 3, now: at(1)) }
                    == nil)
            #expect(
                try await store.write { try await $0.sessions.claimCodeAttempt(phone: "+1", purpose: "sign_in", limit: 9, now: at(600)) }
                    == nil)
            #expect(
                try await store.write { try await $0.sessions.claimCodeAttempt(phone: "+2", purpose: "sign_in", limit: 9, now: at(1)) }
                    == nil)
            // A new code while the old one is valid keeps its count…
            code.codeHash = "c2"
            code.userID = ann.id
            code.createdAt = at(60)
            code.lastSentAt = at(60)
            code.expiresAt = at(660)
            try await store.write { [code] in try await $0.sessions.savePendingCode(code) }
            var saved = code
            saved.attempts = 3
            #expect(try await store.read { try await $0.sessions.pendingCode(phone: "+1", purpose: "sign_in") } == saved)
            // …and one sent after it expired starts afresh.
            code.codeHash = "c3"
            code.createdAt = at(700)
            code.lastSentAt = at(700)
            code.expiresAt = at(1000)
            try await store.write { [code] in try await $0.sessions.savePendingCode(code) }
            saved = code
            #expect(try await store.read { try await $0.sessions.pendingCode(phone: "+1", purpose: "sign_in") } == saved)
            try await store.write { try await $0.sessions.deletePendingCode(phone: "+1", purpose: "sign_in") }
            #expect(try await store.read { try await $0.sessions.pendingCode(phone: "+1", purpose: "sign_in") } == nil)
            #expect(try await store.write { try await $0.sessions.delete(session.id, of: ann.id) } == true)
            #expect(try await store.write { try await $0.sessions.delete(session.id, of: ann.id) } == false)
        }
    }
}
