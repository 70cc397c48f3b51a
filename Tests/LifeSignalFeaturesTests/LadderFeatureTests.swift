import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Synchronization
import Testing

@testable import LifeSignalFeatures

@MainActor
struct LadderFeatureTests {
    nonisolated static let cleo: Contact = {
        var cleo = Fixtures.contact(2, "Cleo", roles: .responder)
        cleo.keyHolder = true
        return cleo
    }()
    nonisolated static let bob: Contact = {
        var bob = Fixtures.contact(3, "Bob", roles: .responder)
        bob.keyHolder = false
        return bob
    }()
    nonisolated static let preview = LadderPreview(
        deadline: Fixtures.now, steps: [], exhaustedAt: nil, sentence: "If you miss 09:30: 09:40 Cleo Test, Bob Test")

    /// A store that has loaded the default ladder, the key holder (Cleo) listed first.
    func loadedStore(record: @escaping @Sendable (LadderChange) -> Void) async -> TestStoreOf<LadderFeature> {
        let store = store(record: record)
        await store.send(.task) { $0.isLoading = true }
        await store.receive(\.loadResponse.success) {
            $0.isLoading = false
            $0.responders = [Self.cleo, Self.bob]
            $0.preview = Self.preview
        }
        return store
    }

    /// A store whose client records what was saved with `record`.
    func store(record: @escaping @Sendable (LadderChange) -> Void) -> TestStoreOf<LadderFeature> {
        TestStore(initialState: LadderFeature.State()) {
            LadderFeature()
        } withDependencies: {
            $0.ladderClient.ladder = { .default }
            $0.ladderClient.preview = { Self.preview }
            $0.ladderClient.save = { change in
                record(change)
                return Ladder(steps: change.steps, sosClimbs: change.sosClimbs ?? false, version: change.version + 1)
            }
            $0.contactClient.list = { _ in ContactLists(responders: [Self.bob, Self.cleo], dependents: []) }
        }
    }

    @Test func loadsPlacesTheKeyHolderFirstAndSavesASteppedLadder() async {
        let saved = Mutex<[LadderChange]>([])
        let store = await loadedStore { change in saved.withLock { $0.append(change) } }
        // Cleo first; everyone else (Bob) 20 minutes later.
        await store.send(.addStepTapped) {
            $0.ladder.steps.append(Ladder.Step(responders: [], waitMinutes: 15))
        }
        await store.send(.placeResponder(Self.cleo.userID, step: 0)) {
            $0.ladder.steps[0].responders = [Self.cleo.userID]
        }
        #expect(store.state.step(of: Self.cleo.userID) == 0)
        #expect(store.state.step(of: Self.bob.userID) == nil)
        await store.send(.waitChanged(step: 1, minutes: 20)) { $0.ladder.steps[1].waitMinutes = 20 }
        await store.send(.waitChanged(step: 0, minutes: 5))
        await store.send(.binding(.set(\.ladder.sosClimbs, true))) { $0.ladder.sosClimbs = true }
        await store.send(.saveButtonTapped) { $0.isSaving = true }
        await store.receive(\.saveResponse.success) {
            $0.isSaving = false
            $0.ladder.version = 1
        }
        #expect(
            saved.withLock { $0 } == [
                LadderChange(
                    steps: [Ladder.Step(responders: [Self.cleo.userID], waitMinutes: 0), Ladder.Step(responders: [], waitMinutes: 20)],
                    sosClimbs: true, version: 0)
            ])
    }

    @Test func anEmptyStepBeforeTheLastIsRefusedOnTheDeviceAndNothingIsSent() async {
        let saved = Mutex<[LadderChange]>([])
        let store = await loadedStore { change in saved.withLock { $0.append(change) } }
        await store.send(.placeResponder(Self.bob.userID, step: 0)) { $0.ladder.steps[0].responders = [Self.bob.userID] }
        await store.send(.addStepTapped) { $0.ladder.steps.append(Ladder.Step(responders: [], waitMinutes: 15)) }
        await store.send(.addStepTapped) {
            $0.ladder.steps.insert(Ladder.Step(responders: [], waitMinutes: 15), at: 1)
        }
        await store.send(.saveButtonTapped) {
            $0.destination = .alert(
                .failure(
                    UserFacingError(
                        message: "Put someone on every step but the last, or remove the empty step.",
                        reason: .invalid(field: "steps[1].responders"))))
        }
        // Removing the first step makes the next one first: it has no wait.
        await store.send(.removeStepTapped(0)) {
            $0.ladder.steps = [Ladder.Step(responders: [], waitMinutes: 0), Ladder.Step(responders: [], waitMinutes: 15)]
        }
        #expect(saved.withLock { $0 }.isEmpty)
    }

    /// A ladder loaded with someone who has since stopped watching over her is not about a wait:
    /// it says which step has someone who cannot be told, in the server's words.
    @Test func aStepWithSomeoneNoLongerAResponderIsTheProblemSaid() async {
        let store = await loadedStore { _ in Issue.record("nothing is sent") }
        let gone = UserID(UUID(77))
        await store.send(.placeResponder(Self.bob.userID, step: 0)) { $0.ladder.steps[0].responders = [Self.bob.userID] }
        store.exhaustivity = .off
        await store.send(.addStepTapped)
        var ladder = store.state.ladder
        ladder.steps[1].responders = [gone]
        await store.send(.binding(.set(\.ladder, ladder)))
        await store.send(.saveButtonTapped)
        #expect(
            store.state.destination
                == .alert(
                    .failure(
                        UserFacingError(
                            message: "Step 2: that person does not watch over you, so they cannot be told.",
                            reason: .invalid(field: "steps[1].responders")))))
    }

    @Test func theKeyHolderIsToggledThroughTheServer() async {
        let marked = Mutex<[Bool]>([])
        var state = LadderFeature.State()
        state.responders = [Self.cleo, Self.bob]
        let store = TestStore(initialState: state) {
            LadderFeature()
        } withDependencies: {
            $0.ladderClient.setKeyHolder = { _, keyHolder in
                marked.withLock { $0.append(keyHolder) }
                var bob = Self.bob
                bob.keyHolder = keyHolder
                return bob
            }
        }
        await store.send(.keyHolderTapped(Self.bob.userID))
        await store.receive(\.keyHolderResponse.success) { $0.responders[1].keyHolder = true }
        #expect(marked.withLock { $0 } == [true])
    }

    @Test func aStaleSaveShowsTheServersWords() async {
        let store = TestStore(initialState: LadderFeature.State()) {
            LadderFeature()
        } withDependencies: {
            $0.ladderClient.save = { _ in
                throw APIError.server(
                    status: 409, code: .ladderChanged, message: "Your ladder was changed somewhere else. Look at it again, then save.",
                    field: nil)
            }
        }
        await store.send(.saveButtonTapped) { $0.isSaving = true }
        await store.receive(\.saveResponse.failure) {
            $0.isSaving = false
            $0.destination = .alert(
                .failure(
                    UserFacingError(
                        message: "Your ladder was changed somewhere else. Look at it again, then save.", reason: .refused(.ladderChanged))))
        }
    }
}
