import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalFeatures
import LifeSignalModels
import Testing

@MainActor
struct DaysOffFeatureTests {
    nonisolated static let day: TimeInterval = 86400
    nonisolated static let holding = Pause(
        id: PauseID(UUID(800)), from: Fixtures.now.addingTimeInterval(-3600), until: Fixtures.now.addingTimeInterval(day),
        setBy: Fixtures.user.id, setByName: "Ada Lovelace", setAt: Fixtures.now.addingTimeInterval(-3600))
    nonisolated static let ahead = Pause(
        id: PauseID(UUID(801)), from: Fixtures.now.addingTimeInterval(10 * day), until: Fixtures.now.addingTimeInterval(14 * day),
        setBy: Fixtures.user.id, setByName: "Ada Lovelace", setAt: Fixtures.now)

    @Test func listsAndEndsOnlyAPauseItKnowsAndPassesTheStatusOn() async {
        let resumed = Fixtures.status(lastCheckIn: Fixtures.now, deadline: Fixtures.now.addingTimeInterval(Self.day))
        let store = TestStore(initialState: DaysOffFeature.State(from: Fixtures.now, until: Fixtures.now)) {
            DaysOffFeature()
        } withDependencies: {
            $0.pauseClient.pauses = { [Self.holding, Self.ahead] }
            $0.pauseClient.remove = { id in
                #expect(id == Self.holding.id)
                return resumed
            }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(\.pausesResponse.success) {
            $0.isLoading = false
            $0.pauses = [Self.holding, Self.ahead]
        }
        await store.send(.removeButtonTapped(PauseID(UUID(899))))
        await store.send(.removeButtonTapped(Self.holding.id)) { $0.removingIDs = [Self.holding.id] }
        await store.receive(\.removeResponse) {
            $0.removingIDs = []
            $0.pauses = [Self.ahead]
        }
        await store.receive(.delegate(.statusChanged(resumed)))
    }

    @Test func aPauseTooLongIsRefusedHereAndAGoodOneIsPlannedInOrder() async {
        let from = Fixtures.now.addingTimeInterval(2 * Self.day)
        let planned = Pause(
            id: PauseID(UUID(802)), from: from, until: from.addingTimeInterval(3 * Self.day), setBy: Fixtures.user.id,
            setByName: "Ada Lovelace", setAt: Fixtures.now)
        var state = DaysOffFeature.State(from: from, until: from.addingTimeInterval(31 * Self.day))
        state.pauses = [Self.ahead]
        let store = TestStore(initialState: state) {
            DaysOffFeature()
        } withDependencies: {
            $0.date = .constant(Fixtures.now)
            $0.pauseClient.add = { start, end, openIncident in
                #expect(start == from && end == from.addingTimeInterval(3 * Self.day) && openIncident == nil)
                return planned
            }
        }
        let tooLong = UserFacingError(
            message: "A pause must end in the future and at most 30 days after it starts.", reason: .invalid(field: "until"))
        await store.send(.addButtonTapped) { $0.destination = .alert(.failure(tooLong)) }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
        await store.send(.binding(.set(\.until, from.addingTimeInterval(3 * Self.day)))) {
            $0.until = from.addingTimeInterval(3 * Self.day)
        }
        await store.send(.addButtonTapped) { $0.isAdding = true }
        await store.receive(\.addResponse.success) {
            $0.isAdding = false
            // Sorted by start: the new one comes before the one ten days ahead.
            $0.pauses = [planned, Self.ahead]
        }
    }

    @Test func aRefusalFromTheServerIsShown() async {
        let store = TestStore(
            initialState: DaysOffFeature.State(
                from: Fixtures.now.addingTimeInterval(Self.day), until: Fixtures.now.addingTimeInterval(2 * Self.day))
        ) {
            DaysOffFeature()
        } withDependencies: {
            $0.date = .constant(Fixtures.now)
            $0.pauseClient.add = { _, _, _ in throw Fixtures.serverError }
        }
        await store.send(.addButtonTapped) { $0.isAdding = true }
        await store.receive(\.addResponse.failure) {
            $0.isAdding = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
    }

    /// A pause that starts now while her responders are alerted about a missed check-in asks, as
    /// the profile's pause does, whether it ends that alert; her answer goes with the pause.
    @Test func aPauseFromNowDuringAnAlertAsksWhatBecomesOfIt() async {
        let until = Fixtures.now.addingTimeInterval(2 * Self.day)
        let held = Pause(
            id: PauseID(UUID(802)), from: Fixtures.now, until: until, setBy: Fixtures.user.id, setByName: "Ada Lovelace",
            setAt: Fixtures.now)
        let asked = APIError.server(status: 409, code: .incidentOpen, message: "Say what becomes of the alert.", field: nil)
        let choices = LockIsolated<[OpenIncidentChoice?]>([])
        let paused = modify(Fixtures.status(lastCheckIn: Fixtures.now, deadline: until.addingTimeInterval(Self.day), state: .paused)) {
            $0.pausedUntil = until
        }
        let store = TestStore(initialState: DaysOffFeature.State(from: Fixtures.now, until: until)) {
            DaysOffFeature()
        } withDependencies: {
            $0.date = .constant(Fixtures.now)
            $0.pauseClient.add = { _, _, choice in
                choices.withValue { $0.append(choice) }
                guard choice != nil else { throw asked }
                return held
            }
            $0.checkInClient.status = { paused }
        }
        await store.send(.addButtonTapped) { $0.isAdding = true }
        await store.receive(\.addResponse.failure) {
            $0.isAdding = false
            $0.destination = .alert(.pausingWhileAlertOpen(DaysOffFeature.Destination.Alert.add))
        }
        await store.send(.destination(.presented(.alert(.add(.resolve))))) {
            $0.isAdding = true
            $0.destination = nil
        }
        await store.receive(\.addResponse.success) {
            $0.isAdding = false
            $0.pauses = [held]
        }
        // It holds from now: the check-in screen and the kept profile hear she is paused.
        await store.receive(.delegate(.statusChanged(paused)))
        #expect(choices.value == [nil, .resolve])
    }
}
