import ComposableCore
import ComposableCoreTesting
import Testing

@MainActor
struct AlertTests {
    let clock = TestClock()

    init() {
        uncheckedUseMainSerialExecutor = true
    }

    func makeStore(items: [String] = ["a", "b"]) -> TestStoreOf<ItemsFeature> {
        TestStore(initialState: ItemsFeature.State(items: items)) {
            ItemsFeature()
        } withDependencies: { [clock] in
            $0.continuousClock = clock
        }
    }

    @Test func aButtonsActionReachesTheParentAndDismissesTheAlert() async {
        let store = self.makeStore()
        await store.send(.deleteTapped("a")) { $0.destination = .alert(.confirmDeletion("a")) }
        await store.send(.destination(.presented(.alert(.confirmDeletion("a"))))) {
            $0.items = ["b"]
            $0.destination = nil
        }
        // The parent's effect outlives the alert it answered.
        await self.clock.advance(by: .seconds(1))
        await store.receive(\.deletionFinished) { $0.deletionsFinished = 1 }
    }

    @Test func aButtonWithoutAnActionOnlyDismisses() async {
        let store = self.makeStore()
        await store.send(.deleteTapped("a")) { $0.destination = .alert(.confirmDeletion("a")) }
        let keep = AlertState<ItemsFeature.Destination.Alert>.confirmDeletion("a").buttons[1]
        await store.send(.destination(keep.tapped(ItemsFeature.Destination.Action.alert))) { $0.destination = nil }
    }

    @Test func aTapSendsTheButtonsActionAsThePresentedChilds() {
        let alert = AlertState<ItemsFeature.Destination.Alert>.confirmDeletion("a")
        let toAction = ItemsFeature.Destination.Action.alert
        #expect(alert.buttons[0].tapped(toAction) == .presented(.alert(.confirmDeletion("a"))))
        #expect(alert.buttons[1].tapped(toAction) == .dismiss)
    }

    @Test func anAlertPresentedInAnswerToAnAlertStaysUp() async {
        let store = self.makeStore(items: ["b"])
        await store.send(.deleteTapped("a")) { $0.destination = .alert(.confirmDeletion("a")) }
        await store.send(.destination(.presented(.alert(.confirmDeletion("a"))))) {
            $0.destination = .alert(.alreadyGone("a"))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
    }

    @Test func aPresentedFeatureIsNotDismissedByItsOwnActions() async {
        let store = self.makeStore()
        await store.send(.timerTapped) { $0.destination = .timer(TimerFeature.State(id: 1)) }
        await store.send(.destination(.presented(.timer(.ticked)))) {
            $0.destination = .timer(TimerFeature.State(id: 1, ticks: 1))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
    }

    @Test func anAlertIsEqualOnlyToTheSameTextButtonsAndActions() {
        typealias Alert = AlertState<ItemsFeature.Destination.Alert>
        #expect(Alert.confirmDeletion("a") == .confirmDeletion("a"))
        #expect(Alert.confirmDeletion("a") != .confirmDeletion("b"))
        var otherMessage = Alert.confirmDeletion("a")
        otherMessage.message = nil
        #expect(otherMessage != .confirmDeletion("a"))
        var otherRole = Alert.confirmDeletion("a")
        otherRole.buttons[0].role = nil
        #expect(otherRole != .confirmDeletion("a"))
        var otherAction = Alert.confirmDeletion("a")
        otherAction.buttons[0].action = nil
        #expect(otherAction != .confirmDeletion("a"))
    }

    @Test func anAlertIsSendableWhenItsActionIs() {
        let alert: any Sendable = AlertState<Never>(title: "Offline", buttons: [.cancel("OK")])
        #expect((alert as? AlertState<Never>)?.buttons.first?.role == .cancel)
    }
}
