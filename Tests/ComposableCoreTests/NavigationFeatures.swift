import ComposableCore

/// A child with a long-running timer, embedded by `ParentFeature` in every supported way.
struct TimerFeature: Reducer {
    struct State: Equatable, Identifiable {
        var id: Int
        var ticks = 0
    }

    @CasePathable
    enum Action: Equatable {
        case startTapped
        case stopTapped
        case ticked
        case doneTapped
        case delegate(Delegate)

        @CasePathable
        enum Delegate: Equatable {
            case done
        }
    }

    enum CancelID { case timer }

    @Dependency(\.continuousClock) var clock

    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .startTapped:
                return .run { send in
                    for await _ in clock.timer(interval: .seconds(1)) {
                        await send(.ticked)
                    }
                }
                .cancellable(id: CancelID.timer)
            case .stopTapped:
                return .cancel(id: CancelID.timer)
            case .ticked:
                state.ticks += 1
                return .none
            case .doneTapped:
                return .send(.delegate(.done))
            case .delegate:
                return .none
            }
        }
    }
}

struct ParentFeature: Reducer {
    struct State: Equatable {
        var embedded = TimerFeature.State(id: 0)
        var embeddedTicksSeenByParent = 0
        @PresentationState var destination: TimerFeature.State?
        var optional: TimerFeature.State?
        var rows: IdentifiedArrayOf<TimerFeature.State> = []
        var path = StackState<TimerFeature.State>()
        var doneCount = 0
    }

    @CasePathable
    enum Action: Equatable {
        case embedded(TimerFeature.Action)
        case destination(PresentationAction<TimerFeature.Action>)
        case optional(TimerFeature.Action)
        case rows(IdentifiedActionOf<TimerFeature>)
        case path(StackActionOf<TimerFeature>)
        case presentTapped
        case showOptionalTapped
        case hideOptionalTapped
        case removeRowTapped(id: Int)
        case pushTapped
    }

    var body: some ReducerOf<Self> {
        Scope(state: \.embedded, action: \.embedded) {
            TimerFeature()
        }
        Reduce { state, action in
            switch action {
            case .embedded(.ticked):
                // The child ran first (its Scope sits above), so this sees the updated count.
                state.embeddedTicksSeenByParent = state.embedded.ticks
                return .none
            case .destination(.presented(.delegate(.done))):
                state.doneCount += 1
                state.destination = nil
                return .none
            case .path(.element(id: _, action: .delegate(.done))):
                state.doneCount += 1
                return .none
            case .presentTapped:
                state.destination = TimerFeature.State(id: 1)
                return .none
            case .showOptionalTapped:
                state.optional = TimerFeature.State(id: 2)
                return .none
            case .hideOptionalTapped:
                state.optional = nil
                return .none
            case let .removeRowTapped(id):
                state.rows.remove(id: id)
                return .none
            case .pushTapped:
                state.path.append(TimerFeature.State(id: 10 + state.path.count))
                return .none
            case .embedded, .destination, .optional, .rows, .path:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination) {
            TimerFeature()
        }
        .ifLet(\.optional, action: \.optional) {
            TimerFeature()
        }
        .forEach(\.rows, action: \.rows) {
            TimerFeature()
        }
        .forEach(\.path, action: \.path) {
            TimerFeature()
        }
    }
}

/// Enum state, for `ifCaseLet` and case-scoped `Scope`.
struct SessionFeature: Reducer {
    @CasePathable
    enum State: Equatable {
        case loggedOut
        case loggedIn(TimerFeature.State)
    }

    @CasePathable
    enum Action: Equatable {
        case loggedIn(TimerFeature.Action)
        case logInTapped
        case logOutTapped
    }

    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .logInTapped:
                state = .loggedIn(TimerFeature.State(id: 0))
                return .none
            case .logOutTapped:
                state = .loggedOut
                return .none
            case .loggedIn:
                return .none
            }
        }
        .ifCaseLet(\.loggedIn, action: \.loggedIn) {
            TimerFeature()
        }
    }
}
