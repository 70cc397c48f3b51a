import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct PendingCheckInsFeatureTests {
    let queued = [
        PendingCheckIn(id: CheckInID(UUID(7)), clientAt: Fixtures.now.addingTimeInterval(-600)),
        PendingCheckIn(id: CheckInID(UUID(8)), clientAt: Fixtures.now.addingTimeInterval(-300)),
    ]

    init() {
        uncheckedUseMainSerialExecutor = true
    }

    @Test func aLoadedQueueIsSentAtOnceWhenOnlineAndTheParentHearsWhatWasSent() async {
        let results = queued.map { Fixtures.checkInResult($0.id, at: Fixtures.now) }
        let store = TestStore(initialState: PendingCheckInsFeature.State()) {
            PendingCheckInsFeature()
        } withDependencies: {
            $0.checkInClient.flushPending = { results }
        }

        await store.send(.loaded(queued)) { $0.checkIns = self.queued }
        await store.receive(.flushResponse(.success(results))) { $0.checkIns = [] }
        await store.receive(.delegate(.sent(results)))
    }

    @Test func nothingIsSentWhileOfflineOrWithAnEmptyQueue() async {
        // The test client fails if flushPending is called.
        let store = TestStore(initialState: PendingCheckInsFeature.State(isOnline: false)) {
            PendingCheckInsFeature()
        }
        await store.send(.loaded(queued)) { $0.checkIns = self.queued }
        await store.send(.loaded([])) { $0.checkIns = [] }
        await store.send(.reachabilityChanged(true)) { $0.isOnline = true }
    }

    @Test func stillOfflineKeepsTheQueueQuietlyUntilTheNextChange() async {
        let flushes = LockIsolated(0)
        let results = queued.map { Fixtures.checkInResult($0.id, at: Fixtures.now) }
        let store = TestStore(initialState: PendingCheckInsFeature.State(checkIns: queued)) {
            PendingCheckInsFeature()
        } withDependencies: {
            $0.checkInClient.flushPending = {
                flushes.withValue { $0 += 1 }
                if flushes.value == 1 { throw Fixtures.offline }
                return results
            }
        }

        await store.send(.reachabilityChanged(true))
        await store.receive(.flushResponse(.failure(Fixtures.offlineFailure))) { $0.isOnline = false }
        await store.send(.reachabilityChanged(true)) { $0.isOnline = true }
        await store.receive(.flushResponse(.success(results))) { $0.checkIns = [] }
        await store.receive(.delegate(.sent(results)))
        #expect(flushes.value == 2)
    }

    @Test func aServerErrorKeepsTheQueueAndIsHandedToTheParent() async {
        let store = TestStore(initialState: PendingCheckInsFeature.State(checkIns: queued)) {
            PendingCheckInsFeature()
        } withDependencies: {
            $0.checkInClient.flushPending = { throw Fixtures.serverError }
        }

        await store.send(.reachabilityChanged(true))
        await store.receive(.flushResponse(.failure(Fixtures.serverFailure)))
        await store.receive(.delegate(.failed(Fixtures.serverFailure)))
    }

    @Test func anEmptyAnswerTellsTheParentNothing() async {
        let store = TestStore(initialState: PendingCheckInsFeature.State(checkIns: queued)) {
            PendingCheckInsFeature()
        } withDependencies: {
            $0.checkInClient.flushPending = { [] }
        }

        await store.send(.reachabilityChanged(true))
        // Nothing was confirmed sent, so the queue stays for the next attempt.
        await store.receive(.flushResponse(.success([])))
    }

    @Test func theNetworkIsFollowedFromStartUntilStop() async {
        let reachability = AsyncStream.makeStream(of: Bool.self)
        let store = TestStore(initialState: PendingCheckInsFeature.State()) {
            PendingCheckInsFeature()
        } withDependencies: {
            $0.reachabilityClient.updates = { reachability.stream }
        }

        await store.send(.startObserving)
        reachability.continuation.yield(false)
        await store.receive(.reachabilityChanged(false)) { $0.isOnline = false }
        reachability.continuation.yield(true)
        await store.receive(.reachabilityChanged(true)) { $0.isOnline = true }
        await store.send(.stopObserving)
        // Stopped: a change now sends nothing.
        reachability.continuation.yield(false)
    }

    @Test func queueingAndRemovingChangeOnlyTheQueue() {
        var state = PendingCheckInsFeature.State()
        state.queue(queued[0])
        state.queue(queued[1])
        #expect(state == PendingCheckInsFeature.State(isOnline: false, checkIns: queued))
        state.remove(queued[0].id)
        #expect(state.checkIns == [queued[1]])
        #expect(state.isOnline == false)
    }
}
