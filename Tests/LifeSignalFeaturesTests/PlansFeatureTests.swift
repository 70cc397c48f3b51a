import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalFeatures
import LifeSignalModels
import Testing

@MainActor
struct PlansFeatureTests {
    nonisolated static let hike = Plan(
        id: PlanID(UUID(800)), title: "Hiking the Rax trail", startedAt: Fixtures.now, dueAt: Fixtures.now.addingTimeInterval(7200),
        details: "Route: Gaisloch", instruction: "Call mountain rescue 140")
    nonisolated static let swim = Plan(
        id: PlanID(UUID(801)), title: "Swim", startedAt: Fixtures.now.addingTimeInterval(-86400), dueAt: Fixtures.now,
        state: .done, endedAt: Fixtures.now)

    @Test func startsAPlanFromTheFormAndRefusesAnEmptyHeadlineOrAPastTime() async {
        let store = TestStore(initialState: PlansFeature.State()) {
            PlansFeature()
        } withDependencies: {
            $0.date = .constant(Fixtures.now)
            $0.planClient.plans = { [Self.swim] }
            $0.planClient.start = { draft in
                #expect(draft.title == "Hiking the Rax trail")
                #expect(draft.details == "Route: Gaisloch")
                #expect(!draft.tellResponders)
                return Self.hike
            }
        }
        await store.send(.task) {
            $0.isLoading = true
            $0.draft = PlanDraft(dueAt: Fixtures.now.addingTimeInterval(3 * 3600))
        }
        await store.receive(\.plansResponse.success) {
            $0.isLoading = false
            $0.plans = [Self.swim]
        }
        await store.send(.startButtonTapped) {
            $0.destination = .alert(
                .failure(UserFacingError(message: "Give the plan a name of 1 to 80 characters.", reason: .invalid(field: "title"))))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
        await store.send(.titleChanged(" Hiking the Rax trail ")) { $0.draft?.title = " Hiking the Rax trail " }
        await store.send(.dueAtChanged(Fixtures.now.addingTimeInterval(-60))) { $0.draft?.dueAt = Fixtures.now.addingTimeInterval(-60) }
        await store.send(.startButtonTapped) {
            $0.destination = .alert(
                .failure(UserFacingError(message: "The time you're due back must be in the future.", reason: .invalid(field: "dueAt"))))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
        await store.send(.dueAtChanged(Self.hike.dueAt)) { $0.draft?.dueAt = Self.hike.dueAt }
        await store.send(.detailsChanged("Route: Gaisloch")) { $0.draft?.details = "Route: Gaisloch" }
        await store.send(.tellRespondersToggled(false)) { $0.draft?.tellResponders = false }
        // A long plan's check-ins: held to 12–72 hours, and off again.
        await store.send(.checkInEveryChanged(6)) { $0.draft?.checkInEveryHours = 12 }
        await store.send(.checkInEveryChanged(24)) { $0.draft?.checkInEveryHours = 24 }
        await store.send(.checkInEveryChanged(nil)) { $0.draft?.checkInEveryHours = nil }
        await store.send(.startButtonTapped) { $0.isStarting = true }
        await store.receive(\.startResponse.success) {
            $0.isStarting = false
            $0.plans = [Self.hike, Self.swim]
            $0.draft = PlanDraft(dueAt: Fixtures.now.addingTimeInterval(3 * 3600))
        }
    }

    @Test func moreTimeBackAndCallingOffArePressesOnARunningPlanOnly() async {
        var extended = Self.hike
        extended.dueAt = Self.hike.dueAt.addingTimeInterval(3600)
        extended.extensions = 1
        var back = extended
        back.state = .done
        back.endedAt = Fixtures.now
        let (extendedPlan, backPlan) = (extended, back)
        var state = PlansFeature.State()
        state.plans = [Self.hike, Self.swim]
        let store = TestStore(initialState: state) {
            PlansFeature()
        } withDependencies: {
            $0.date = .constant(Fixtures.now)
            $0.planClient.extend = { id, minutes in
                #expect(id == Self.hike.id)
                #expect(minutes == 60)
                return extendedPlan
            }
            $0.planClient.done = { id in
                #expect(id == Self.hike.id)
                return backPlan
            }
        }
        // An ended plan has no buttons: pressing them does nothing.
        await store.send(.moreTimeButtonTapped(Self.swim.id, minutes: 60))
        await store.send(.backButtonTapped(Self.swim.id))
        await store.send(.moreTimeButtonTapped(Self.hike.id, minutes: 60)) { $0.busyIDs = [Self.hike.id] }
        await store.receive(\.planResponse) {
            $0.busyIDs = []
            $0.plans[id: Self.hike.id] = extended
        }
        await store.send(.backButtonTapped(Self.hike.id)) { $0.busyIDs = [Self.hike.id] }
        await store.receive(\.planResponse) {
            $0.busyIDs = []
            $0.plans[id: Self.hike.id] = back
        }
        #expect(store.state.running.isEmpty)
    }

    @Test func callingOffErasesTheDetailsOnScreenAndAFailureIsSaidPlainly() async {
        var state = PlansFeature.State()
        state.plans = [Self.hike]
        let refusal = UserFacingError(message: "That plan has already ended.", reason: .refused(.planEnded))
        let store = TestStore(initialState: state) {
            PlansFeature()
        } withDependencies: {
            $0.date = .constant(Fixtures.now)
            $0.planClient.cancel = { id in #expect(id == Self.hike.id) }
            $0.planClient.extend = { _, _ in throw refusal }
        }
        await store.send(.cancelButtonTapped(Self.hike.id)) { $0.busyIDs = [Self.hike.id] }
        await store.receive(\.planResponse) {
            $0.busyIDs = []
            $0.plans[id: Self.hike.id]?.state = .cancelled
            $0.plans[id: Self.hike.id]?.details = nil
            $0.plans[id: Self.hike.id]?.endedAt = Fixtures.now
        }
        var running = PlansFeature.State()
        running.plans = [Self.hike]
        // Called off: no more presses on it.
        await store.send(.moreTimeButtonTapped(Self.hike.id, minutes: 30))
        let second = TestStore(initialState: running) {
            PlansFeature()
        } withDependencies: {
            $0.planClient.extend = { _, _ in throw refusal }
        }
        await second.send(.moreTimeButtonTapped(Self.hike.id, minutes: 30)) { $0.busyIDs = [Self.hike.id] }
        await second.receive(\.planResponse) {
            $0.busyIDs = []
            $0.destination = .alert(.failure(refusal))
        }
    }
}
