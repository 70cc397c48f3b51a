import Foundation
@_spi(Testing) import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// On PostgreSQL a check-in's writes and the reads after them go as one statement
/// (`check_in_statement=on`, the default); SQLite, and PostgreSQL with it off, run them one by
/// one. The same story — every branch of `recordCheckIn`: a first check-in, a repeated id, a
/// call request, a missed check-in it ends, a responder's check-in on her behalf, a plan she is
/// late back from, a long plan's check-in, a pause, grace, an SOS it leaves open — runs on each,
/// and everything a person sees of it must read the same; each timeline must verify.
/// (The store's own test pins the rows and hashes byte for byte, with fixed ids.)
@Suite("A check-in reads the same on every path", .serialized, .timeLimit(.minutes(3)))
struct CheckInPathTests {
    enum Path: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgresOneStatement, postgresStatementByStatement
        var testDescription: String { rawValue }
    }

    static var paths: [Path] { TestBackend.postgresURL == nil ? [.sqlite] : Path.allCases }

    static func world(_ path: Path) async throws -> (TestWorld, drop: @Sendable () async -> Void) {
        switch path {
        case .sqlite: return try await TestWorld.on(.sqlite)
        case .postgresOneStatement: return try await TestWorld.on(.postgres)
        case .postgresStatementByStatement:
            return try await TestWorld.on(.postgres) { settings in
                settings.database += (settings.database.contains("?") ? "&" : "?") + "check_in_statement=off"
            }
        }
    }

    /// What a person and her responder see of a story, ids left out (they are random).
    static func story(_ path: Path) async throws -> [String] {
        let (world, drop) = try await world(path)
        do {
            let lines = try await tell(world)
            await drop()
            return lines
        } catch {
            await drop()
            throw error
        }
    }

    static func tell(_ world: TestWorld) async throws -> [String] {
        var lines: [String] = []
        let start = TestWorld.start
        func line(_ what: String, _ result: CheckInResult) {
            let status = result.status
            lines.append(
                [
                    what, "duplicate=\(result.duplicate)", "state=\(status.state)",
                    "deadline=\(status.deadline.timeIntervalSince(start))",
                    "open=\(status.openIncident.map { "\($0.kind)" } ?? "-")",
                    "call=\(result.callRequest != nil)", "at=\(result.checkIn.at.timeIntervalSince(start))",
                    "source=\(result.checkIn.source)", "by=\(result.checkIn.recordedBy != nil)",
                ].joined(separator: " "))
        }
        func engine() async throws { _ = try await EscalationEngine(core: world.core, instance: "paths").runPass() }

        let ada = try await world.signUp("Ada", phone: "+447700900901")
        let bob = try await world.signUp("Bob", phone: "+447700900902")
        try await world.link(responder: bob, dependent: ada)

        // A first check-in, then the same id again.
        world.clock.advance(by: 600)
        let first = CheckInID(UUID())
        line("first", try await world.checkIns.checkIn(ada, id: first, clientAt: start, source: .app))
        world.clock.advance(by: 60)
        line("repeat", try await world.checkIns.checkIn(ada, id: first, clientAt: nil, source: .web))
        // "I'm OK, but please call me today", then the same again.
        world.clock.advance(by: 60)
        let call = CheckInID(UUID())
        line("call me", try await world.checkIns.checkIn(ada, id: call, clientAt: nil, source: .app, callMe: true))
        line("call me again", try await world.checkIns.checkIn(ada, id: call, clientAt: nil, source: .app, callMe: true))

        // Grace: a longer grace moves nothing of the deadline, but the alert waits for it.
        _ = try await world.profiles.updateProfile(ada, ProfileChanges(graceMinutes: 30))
        // Late: the engine opens a missed check-in; her check-in ends it.
        world.clock.advance(by: 24 * 3600 + 40 * 60)
        try await engine()
        lines.append("before: open=\(try await world.checkIns.status(ada).openIncident.map { "\($0.kind)" } ?? "-")")
        line("late", try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app))

        // Late again; Bob checks in on her behalf.
        world.clock.advance(by: 24 * 3600 + 40 * 60)
        try await engine()
        line("on behalf", try await world.incidents.checkInOnBehalf(bob, of: ada.user.id, id: CheckInID(UUID())))

        // A plan she is late back from: her check-in ends it.
        _ = try await world.plans.start(ada, PlanRequest(title: "Walk", dueAt: world.clock.now.addingTimeInterval(3600)))
        world.clock.advance(by: 3600 + 40 * 60)
        try await engine()
        line("back from a plan", try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app))
        lines.append("plans: " + (try await world.plans.list(ada)).map { "\($0.title) \($0.state)" }.joined(separator: ", "))

        // A long plan with a check-in every few hours: her check-in moves it on.
        _ = try await world.plans.start(
            ada, PlanRequest(title: "Trek", dueAt: world.clock.now.addingTimeInterval(3 * 86400), checkInEveryHours: 12))
        world.clock.advance(by: 3600)
        line("on a long plan", try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app))
        lines.append(
            "plans: "
                + (try await world.plans.list(ada)).map {
                    "\($0.title) \($0.state) \($0.checkInBy.map { "\($0.timeIntervalSince(start))" } ?? "-")"
                }.joined(separator: ", "))

        // Paused.
        _ = try await world.profiles.setPause(ada, until: world.clock.now.addingTimeInterval(2 * 86400))
        world.clock.advance(by: 60)
        line("paused", try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app))
        _ = try await world.profiles.setPause(ada, until: nil)

        // An SOS: a check-in leaves it open.
        _ = try await world.incidents.raiseAlert(ada)
        world.clock.advance(by: 60)
        line("during an SOS", try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app))

        lines.append(
            "timeline: "
                + (try await world.timeline.timeline(ada)).map { "\($0.sequence) \($0.kind): \($0.summary)" }
                .joined(separator: " | "))
        let verified = try await world.timeline.verifyTimeline(ada)
        lines.append("verified: \(verified.valid) \(verified.entries) \(verified.reason ?? "-")")
        lines.append(
            "bob told: "
                + (try await world.notifications(bob)).map { "\($0.type) \($0.title)" }.sorted().joined(separator: " | "))
        lines.append("ada status: \(try await world.checkIns.status(ada).state)")
        return lines
    }

    @Test("every branch of a check-in reads the same in one statement as one by one, and as on SQLite")
    func sameStory() async throws {
        var stories: [Path: [String]] = [:]
        for path in Self.paths { stories[path] = try await Self.story(path) }
        let sqlite = try #require(stories[.sqlite])
        #expect(sqlite.contains { $0.hasPrefix("late ") && $0.contains("open=-") })
        #expect(sqlite.contains { $0.hasPrefix("during an SOS ") && $0.contains("open=manualAlert") })
        #expect(sqlite.contains { $0.hasPrefix("repeat ") && $0.contains("duplicate=true") })
        #expect(sqlite.contains("before: open=missedCheckIn"))
        #expect(sqlite.contains { $0.hasPrefix("call me ") && $0.contains("call=true") })
        #expect(sqlite.contains { $0.hasPrefix("on behalf ") && $0.contains("by=true") })
        #expect(sqlite.contains { $0.hasPrefix("plans: Walk done") })
        #expect(sqlite.contains { $0.hasPrefix("paused ") && $0.contains("state=paused") })
        #expect(sqlite.contains("verified: true 0 -") == false)
        #expect(sqlite.contains { $0.hasPrefix("verified: true ") })
        for (path, story) in stories where path != .sqlite {
            #expect(story.count == sqlite.count, "\(path)")
            for (mine, theirs) in zip(story, sqlite) { #expect(mine == theirs, "\(path)") }
        }
    }
}
