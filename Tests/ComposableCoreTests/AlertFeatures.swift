import ComposableCore

/// A list whose deletions are confirmed by an alert, and which can also present a timer sheet
/// from the same `Destination`: an alert and a child feature side by side, as in SyncUps.
struct ItemsFeature: Reducer {
    struct State: Equatable {
        var items: [String]
        var deletionsFinished = 0
        @PresentationState var destination: Destination.State?
    }

    @CasePathable
    enum Action: Equatable {
        case deleteTapped(String)
        case timerTapped
        case deletionFinished
        case destination(PresentationAction<Destination.Action>)
    }

    struct Destination: Reducer {
        @CasePathable
        enum State: Equatable {
            case alert(AlertState<Alert>)
            case timer(TimerFeature.State)
        }

        @CasePathable
        enum Action: Equatable {
            case alert(Alert)
            case timer(TimerFeature.Action)
        }

        enum Alert: Equatable {
            case confirmDeletion(String)
        }

        var body: some ReducerOf<Self> {
            Scope(state: \.timer, action: \.timer) {
                TimerFeature()
            }
        }
    }

    @Dependency(\.continuousClock) var clock

    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case let .deleteTapped(item):
                state.destination = .alert(.confirmDeletion(item))
                return .none
            case .timerTapped:
                state.destination = .timer(TimerFeature.State(id: 1))
                return .none
            case let .destination(.presented(.alert(.confirmDeletion(item)))):
                guard state.items.contains(item) else {
                    // Answering one alert with another: the new one must stay up.
                    state.destination = .alert(.alreadyGone(item))
                    return .none
                }
                state.items.removeAll { $0 == item }
                return .run { [clock] send in
                    try await clock.sleep(for: .seconds(1))
                    await send(.deletionFinished)
                }
            case .deletionFinished:
                state.deletionsFinished += 1
                return .none
            case .destination:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination) {
            Destination()
        }
    }
}

extension AlertState where Action == ItemsFeature.Destination.Alert {
    static func confirmDeletion(_ item: String) -> Self {
        AlertState(
            title: "Delete \(item)?", message: "This cannot be undone.",
            buttons: [.destructive("Delete", action: .confirmDeletion(item)), .cancel("Keep")])
    }

    static func alreadyGone(_ item: String) -> Self {
        AlertState(title: "\(item) was already deleted.")
    }
}
