import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

/// "I'm OK, but please call me today" on the check-in screen: the same check-in through the
/// client's `callMe`, then a confirmation that says who was asked.
@MainActor
struct CheckInCallMeTests {
    let clock = TestClock()
    let date = ManualDate()

    init() {
        uncheckedUseMainSerialExecutor = true
    }

    func makeStore(_ dependencies: @escaping (inout DependencyValues) -> Void) -> TestStoreOf<CheckInFeature> {
        TestStore(initialState: CheckInFeature.State()) {
            CheckInFeature()
        } withDependencies: { [clock, date] in
            $0.continuousClock = clock
            $0.date = date.generator
            $0.uuid = .incrementing
            $0.localNotificationClient.cancel = { _ in }
            $0.localNotificationClient.schedule = { _ in }
            $0.hapticsClient.play = { _ in }
            dependencies(&$0)
        }
    }

    nonisolated static func asked(_ id: CheckInID, _ request: CallRequest) -> CheckInResult {
        var result = Fixtures.checkInResult(id, at: Fixtures.now)
        result.callRequest = request
        return result
    }

    @Test func callMeChecksInAndSaysWhoWasAsked() async {
        let sent = LockIsolated<[CheckInID]>([])
        let store = makeStore { [date] in
            $0.checkInClient.callMe = { id, clientAt in
                sent.withValue { $0.append(id) }
                #expect(clientAt == date.now)
                return .recorded(Self.asked(id, CallRequest(outcome: .asked, told: ["Bob Test", "Cy Test"])))
            }
        }

        await store.send(.callMeTapped) {
            $0.isCheckingIn = true
        }
        await store.receive(\.checkInResponse.success) {
            $0.checkedInNow(confirming: ("You're checked in", "We've asked Bob Test and Cy Test to call you today."))
        }
        #expect(sent.value == [CheckInID(UUID(0))])

        // Both buttons rest together: a second tap asks nothing.
        await store.send(.callMeTapped)
        await store.send(.destination(.dismiss)) {
            $0.destination = nil
        }
        await clock.advance(by: .seconds(30))
        await store.receive(\.cooldownEnded) {
            $0.isCoolingDown = false
        }
        #expect(sent.value.count == 1)
    }

    @Test func askedAlreadyTodayOrNobodyToAsk() async {
        let answers = LockIsolated<[CallRequest]>([CallRequest(outcome: .alreadyAsked), CallRequest(outcome: .nobody)])
        let store = makeStore {
            $0.checkInClient.callMe = { id, _ in
                .recorded(Self.asked(id, answers.withValue { $0.removeFirst() }))
            }
        }

        await store.send(.callMeTapped) {
            $0.isCheckingIn = true
        }
        await store.receive(\.checkInResponse.success) {
            $0.checkedInNow(confirming: ("You're checked in", "You already asked for a call today, so nobody was told again."))
        }
        await clock.advance(by: .seconds(30))
        await store.receive(\.cooldownEnded) {
            $0.isCoolingDown = false
        }

        await store.send(.callMeTapped) {
            $0.isCheckingIn = true
        }
        await store.receive(\.checkInResponse.success) {
            $0.isCheckingIn = false
            $0.isCoolingDown = true
            $0.destination = .alert(
                AlertState(
                    title: "You're checked in", message: "Nobody watches over you yet, so nobody could be asked to call you.",
                    buttons: [.cancel("OK")]))
        }
        await clock.advance(by: .seconds(30))
        await store.receive(\.cooldownEnded) {
            $0.isCoolingDown = false
        }
    }

    @Test func callMeOfflineIsQueuedAskingForTheCall() async {
        let store = makeStore {
            $0.checkInClient.callMe = { id, clientAt in .queued(PendingCheckIn(id: id, clientAt: clientAt, callMe: true)) }
        }

        await store.send(.callMeTapped) {
            $0.isCheckingIn = true
        }
        await store.receive(\.checkInResponse.success) {
            $0.isCheckingIn = false
            $0.pending.isOnline = false
            $0.pending.checkIns = [PendingCheckIn(id: CheckInID(UUID(0)), clientAt: Fixtures.now, callMe: true)]
            $0.isCoolingDown = true
        }
        await clock.advance(by: .seconds(30))
        await store.receive(\.cooldownEnded) {
            $0.isCoolingDown = false
        }
    }

    @Test func inGerman() async {
        let store = makeStore {
            $0.language = Language("de")!
            $0.checkInClient.callMe = { id, _ in .recorded(Self.asked(id, CallRequest(outcome: .asked, told: ["Bob Test"]))) }
        }
        await store.send(.callMeTapped) {
            $0.isCheckingIn = true
        }
        await store.receive(\.checkInResponse.success) {
            $0.checkedInNow(confirming: ("Sie sind gemeldet", "Wir haben Bob Test gebeten, Sie heute anzurufen."))
        }
        await clock.advance(by: .seconds(30))
        await store.receive(\.cooldownEnded) {
            $0.isCoolingDown = false
        }
    }
}
