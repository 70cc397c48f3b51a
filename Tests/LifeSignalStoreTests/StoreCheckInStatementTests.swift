import Foundation
import LifeSignalModels
import Testing

@_spi(Testing) @testable import LifeSignalStore

/// A check-in's writes on PostgreSQL go as one statement (`check_in_statement`, on by default);
/// they must leave exactly what the statements one by one leave, on SQLite and on PostgreSQL:
/// the same rows, the same timeline chain (hashes and seals), the same answer. The same script,
/// with the same ids and times, runs on each and the rows are compared whole.
@Suite("Store contract: a check-in in one statement", .serialized, .timeLimit(.minutes(2)))
struct StoreCheckInStatementTests {
    enum Variant: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgresOneStatement, postgresStatementByStatement
        var testDescription: String { rawValue }
    }

    static var variants: [Variant] {
        Backend.postgresURL == nil ? [.sqlite] : Variant.allCases
    }

    static let ann = UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000a001")!)
    static let bob = UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000b002")!)
    static let cy = UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000c003")!)
    static let dee = UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000d004")!)
    static let key = Array("a timeline key of thirty-two byte".utf8)

    static func checkIn(
        _ n: Int, at seconds: Double, clientAt: Date? = nil, recordedBy: UserID? = nil, device: String? = nil
    )
        -> CheckIn
    {
        CheckIn(
            id: CheckInID(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))!), userID: ann,
            at: at(seconds), clientAt: clientAt, source: .app, recordedBy: recordedBy, device: device)
    }

    /// What one check-in answered: whether it inserted, and what the transaction reads next
    /// (read here whatever the path, and checked against what the one statement answered).
    struct Answer: Equatable {
        var inserted: Bool
        var hasRunningPlans: Bool
        var hasOpenIncidents: Bool
        var responderIDs: [UserID]
    }

    /// Everything the script leaves: every answer, and the rows of the tables a check-in writes.
    struct Outcome: Equatable {
        var answers: [Answer]
        var checkIns: [CheckIn]
        var people: [[SQLValue]]
        var timeline: [TimelineEntry]
    }

    static func open(_ variant: Variant) async throws -> (Store, TestDatabase) {
        let test = try await TestDatabase.make(variant == .sqlite ? .sqlite : .postgres)
        var location = test.location
        if variant == .postgresStatementByStatement {
            location += (location.contains("?") ? "&" : "?") + "check_in_statement=off"
        }
        let database: any SQLDatabase =
            variant == .sqlite
            ? try SQLiteDatabase(path: location) : try await PostgresDatabase.connect(url: location, logger: nil)
        try await Migrator.migrate(database)
        return (Store(database: database).sealingTimelines(with: key), test)
    }

    /// One check-in in its own transaction, as the service makes it: the row locked and read
    /// first, then the writes, then (when it inserted) the reads that follow.
    static func record(
        _ checkIn: CheckIn, in store: Store, step: Int = 0, nextActionAt: Date? = nil, before: String? = nil,
        after: String? = nil, expectOneStatement: Bool
    ) async throws -> Answer {
        try await store.write { tx in
            _ = try #require(try await tx.people.lockEscalations([ann]).first)
            if let before { try await tx.timeline.append(ann, at: checkIn.at, kind: "note", summary: before, detail: "{}") }
            let write = try await tx.checkIns.record(
                checkIn, timelineKind: "check_in", summary: "Checked in \(checkIn.id)", detail: #"{"n":1}"#,
                deadline: Date(milliseconds: checkIn.at.milliseconds + 3_600_000), escalationStep: step,
                nextActionAt: nextActionAt)
            if let after { try await tx.timeline.append(ann, at: checkIn.at, kind: "note", summary: after, detail: "{}") }
            let answer = Answer(
                inserted: write.inserted, hasRunningPlans: !(try await tx.plans.runningPlans(of: ann)).isEmpty,
                hasOpenIncidents: !(try await tx.incidents.openIncidents(of: ann)).isEmpty,
                responderIDs: try await tx.links.responderIDs(of: ann))
            if write.inserted && expectOneStatement {
                #expect(write.hasRunningPlans == answer.hasRunningPlans)
                #expect(write.hasOpenIncidents == answer.hasOpenIncidents)
                #expect(write.responderIDs == answer.responderIDs)
            } else {
                #expect(write.hasRunningPlans == nil && write.hasOpenIncidents == nil && write.responderIDs == nil)
            }
            return answer
        }
    }

    static func run(_ variant: Variant) async throws -> Outcome {
        let (store, test) = try await open(variant)
        do {
            let outcome = try await script(store, oneStatement: variant == .postgresOneStatement)
            await store.close()
            await test.drop()
            return outcome
        } catch {
            await store.close()
            await test.drop()
            throw error
        }
    }

    static func script(_ store: Store, oneStatement: Bool) async throws -> Outcome {
        for (id, phone) in [(ann, "+15550000001"), (bob, "+15550000002"), (cy, "+15550000003"), (dee, "+15550000004")] {
            let user = User(id: id, phone: phone, schedule: .default, createdAt: t0, contactCode: "code\(phone.suffix(4))")
            try await store.write { try await $0.people.insert(user, deadline: at(86400), nextActionAt: at(86400 - 1800)) }
        }
        var answers: [Answer] = []
        let one = oneStatement
        // Nobody watches over her yet, nothing open, nothing running.
        answers.append(try await record(checkIn(1, at: 10), in: store, step: 1, nextActionAt: at(100), expectOneStatement: one))
        // Responders (and a contact who is not one), added in this order.
        try await store.write { tx in
            try await tx.links.insert(LinkRecord(userID: ann, contactID: cy, roles: .responder, addedAt: at(11)))
            try await tx.links.insert(LinkRecord(userID: ann, contactID: dee, roles: .dependent, addedAt: at(12)))
            try await tx.links.insert(LinkRecord(userID: ann, contactID: bob, roles: [.responder, .dependent], addedAt: at(13)))
        }
        // Every optional column set; entries appended before and after it in the same transaction.
        answers.append(
            try await record(
                checkIn(2, at: 20, clientAt: at(19), recordedBy: bob, device: "Kitchen button"), in: store,
                before: "before", after: "after", expectOneStatement: one))
        // A repeated id writes nothing, and the entry after it chains on from the head as it was.
        answers.append(try await record(checkIn(1, at: 30), in: store, after: "after a repeat", expectOneStatement: one))
        // An open incident and a running plan.
        try await store.write { tx in
            _ = try await tx.incidents.insert(
                Incident(
                    id: IncidentID(UUID(uuidString: "00000000-0000-4000-8000-0000000e0001")!), userID: ann,
                    kind: .manualAlert, openedAt: at(40), dueAt: at(40)))
            try await tx.plans.insert(
                Plan(
                    id: PlanID(UUID(uuidString: "00000000-0000-4000-8000-0000000f0001")!), title: "Walk", startedAt: at(40), dueAt: at(4000)
                ),
                of: ann, step: 0, nextActionAt: at(4000))
        }
        answers.append(
            try await record(checkIn(3, at: 50, clientAt: at(49)), in: store, step: 2, nextActionAt: at(500), expectOneStatement: one))
        let checkIns = try await store.read { try await $0.checkIns.list(of: ann, after: nil, limit: 100) }
        let people = try await store.read { tx in
            try await tx.executor.query(
                """
                SELECT id, last_check_in_at, deadline_at, next_action_at, escalation_step, timeline_seq, timeline_head,
                    timeline_seal FROM users ORDER BY id
                """, []
            ).map(\.values)
        }
        let timeline = try await store.read { try await $0.timeline.entries(of: ann) }
        let head = try await store.read { try await $0.timeline.head(of: ann) }
        #expect(head?.sequence == timeline.last?.sequence)
        #expect(head?.hash == timeline.last?.hash)
        for (entry, next) in zip(timeline, timeline.dropFirst()) {
            #expect(next.previousHash == entry.hash)
            #expect(next.sequence == entry.sequence + 1)
        }
        return Outcome(answers: answers, checkIns: checkIns, people: people, timeline: timeline)
    }

    @Test("one statement leaves the rows, chain and answers the statements one by one leave")
    func sameRowsSameChain() async throws {
        var outcomes: [Variant: Outcome] = [:]
        for variant in Self.variants { outcomes[variant] = try await Self.run(variant) }
        let sqlite = try #require(outcomes[.sqlite])
        #expect(sqlite.answers.map(\.inserted) == [true, true, false, true])
        #expect(sqlite.answers[1].responderIDs == [Self.cy, Self.bob])
        #expect(sqlite.answers.last?.hasOpenIncidents == true && sqlite.answers.last?.hasRunningPlans == true)
        #expect(sqlite.checkIns.count == 3)
        #expect(sqlite.timeline.map(\.summary).filter { $0.hasPrefix("Checked in") }.count == 3)
        #expect(sqlite.timeline.map(\.kind) == ["check_in", "note", "check_in", "note", "note", "check_in"])
        for (variant, outcome) in outcomes where variant != .sqlite {
            #expect(outcome.answers == sqlite.answers, "\(variant)")
            #expect(outcome.checkIns == sqlite.checkIns, "\(variant)")
            #expect(outcome.people == sqlite.people, "\(variant)")
            #expect(outcome.timeline == sqlite.timeline, "\(variant)")
        }
    }
}
