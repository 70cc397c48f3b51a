import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

/// The incident screen shows where the alert is on her ladder: the step, when the next one is
/// told (in the viewer's zone), that the climb stopped once someone is on it, and that nobody
/// has confirmed they are coming once it is exhausted.
@MainActor
struct IncidentLadderTests {
    nonisolated static let me = Fixtures.id(1)
    nonisolated static let ada = Fixtures.id(2)
    nonisolated static let incidentID = IncidentID(UUID(300))
    /// Opened 10 minutes ago (07:50 UTC); Cleo at once, Bob 15 minutes on, everyone 15 after.
    nonisolated static let openedAt = Fixtures.now.addingTimeInterval(-600)

    nonisolated static func report(told: Int, acknowledgedBy: UserID? = nil, exhaustedAt: Date? = nil) -> IncidentReport {
        let steps = [0, 15, 30].map {
            IncidentLadder.Step(responders: [Fixtures.id(10 + $0)], at: openedAt.addingTimeInterval(Double($0 * 60)))
        }
        let incident = Incident(
            id: incidentID, userID: ada, kind: .missedCheckIn, openedAt: openedAt, dueAt: openedAt, acknowledgedBy: acknowledgedBy,
            acknowledgedAt: acknowledgedBy.map { _ in Fixtures.now },
            ladder: IncidentLadder(steps: steps, told: told, exhaustedAt: exhaustedAt))
        return IncidentReport(
            incident: incident, user: ContactPreview(userID: ada, firstName: "Ada", lastName: "Test", emergencyNote: ""),
            acknowledgedByName: acknowledgedBy.map { _ in "Cy Test" }, recipients: [])
    }

    init() {
        uncheckedUseMainSerialExecutor = true
    }

    @Test func theStepTheNextStepAndTheEndOfTheLadder() async {
        let events = AsyncThrowingStream.makeStream(of: StreamEvent.self, throwing: (any Error).self)
        let exhaustedAt = Fixtures.now.addingTimeInterval(3000)
        let reports = LockIsolated([
            Self.report(told: 1), Self.report(told: 2), Self.report(told: 2, acknowledgedBy: Fixtures.id(3)),
            Self.report(told: 3, exhaustedAt: exhaustedAt),
        ])
        let store = TestStore(initialState: IncidentFeature.State(incidentID: Self.incidentID, personName: "Ada", viewerID: Self.me)) {
            IncidentFeature()
        } withDependencies: {
            $0.alertClient.incidentReport = { _ in reports.withValue { $0.removeFirst() } }
            $0.notificationClient.events = { events.stream }
            $0.timeZone = TimeZone(identifier: "America/New_York")!
        }
        let task = await store.send(.task) {
            $0.isLive = true
            $0.isLoading = true
        }
        // 08:05 UTC is 03:05 in New York, where the viewer is.
        await store.receive(.reportResponse(.success(Self.report(told: 1)))) {
            $0.isLoading = false
            $0.report = Self.report(told: 1)
            $0.personName = "Ada"
            $0.ladder = LadderProgress(
                step: 1, steps: 3, nextStepAt: Self.openedAt.addingTimeInterval(900), exhaustedAt: nil,
                summary: "Step 1 of 3 · next step at 03:05")
        }
        var about = Fixtures.notification(2, .incidentOpened, minutesAgo: 0)
        about.incidentID = Self.incidentID
        // The ladder climbed.
        events.continuation.yield(.notification(about))
        await store.receive(.streamEvent(.notification(about))) { $0.isLoading = true }
        await store.receive(.reportResponse(.success(Self.report(told: 2)))) {
            $0.isLoading = false
            $0.report = Self.report(told: 2)
            $0.ladder = LadderProgress(
                step: 2, steps: 3, nextStepAt: Self.openedAt.addingTimeInterval(1800), exhaustedAt: nil,
                summary: "Step 2 of 3 · next step at 03:20")
        }
        // Someone is on it: the climb stops, no next step is promised.
        events.continuation.yield(.notification(about))
        await store.receive(.streamEvent(.notification(about))) { $0.isLoading = true }
        let acknowledged = Self.report(told: 2, acknowledgedBy: Fixtures.id(3))
        await store.receive(.reportResponse(.success(acknowledged))) {
            $0.isLoading = false
            $0.report = acknowledged
            $0.ladder = LadderProgress(step: 2, steps: 3, nextStepAt: nil, exhaustedAt: nil, summary: "Step 2 of 3")
        }
        // The claim lapsed, the last step was told and nobody answered: everyone was called.
        events.continuation.yield(.notification(about))
        await store.receive(.streamEvent(.notification(about))) { $0.isLoading = true }
        await store.receive(.reportResponse(.success(Self.report(told: 3, exhaustedAt: exhaustedAt)))) {
            $0.isLoading = false
            $0.report = Self.report(told: 3, exhaustedAt: exhaustedAt)
            $0.ladder = LadderProgress(
                step: 3, steps: 3, nextStepAt: nil, exhaustedAt: exhaustedAt,
                summary: "Step 3 of 3 · nobody has confirmed they are coming")
        }
        await task.cancel()
    }

    @Test func aLadderThatTellsEveryoneAtOnceShowsNoStepAndWordsFollowTheLanguage() {
        var everyone = Self.report(told: 1).incident
        everyone.ladder = IncidentLadder(steps: [IncidentLadder.Step(responders: [Self.me], at: Self.openedAt)], told: 1)
        let utc = TimeZone(identifier: "UTC")!
        #expect(LadderProgress(everyone, words: Words(.english), timeZone: utc) == nil)
        everyone.ladder?.exhaustedAt = Fixtures.now
        #expect(
            LadderProgress(everyone, words: Words(.english), timeZone: utc)?.summary == "Step 1 of 1 · nobody has confirmed they are coming"
        )
        // Before ladders: nothing to show.
        everyone.ladder = nil
        #expect(LadderProgress(everyone, words: Words(.english), timeZone: utc) == nil)
        // Over: nothing either.
        var resolved = Self.report(told: 2).incident
        resolved.resolvedAt = Fixtures.now
        resolved.resolution = .resolvedByResponder
        #expect(LadderProgress(resolved, words: Words(.english), timeZone: utc) == nil)
        let german = LadderProgress(Self.report(told: 2).incident, words: Words(Language("de")!), timeZone: utc)
        #expect(german?.summary == "Stufe 2 von 3 · nächste Stufe um 08:20")
    }
}
