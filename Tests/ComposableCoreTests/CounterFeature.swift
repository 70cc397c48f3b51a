import ComposableCore
import ComposableCoreTesting

/// A small feature exercising every kind of effect, shared by the tests.
struct CounterFeature: Reducer {
    struct State: Equatable {
        var count = 0
        var log: [String] = []
    }

    @CasePathable
    enum Action: Equatable {
        case incrementButtonTapped
        case sendTwiceTapped
        case delayedIncrementTapped
        case cancelDelayedTapped
        case latestWinsTapped(Int)
        case searchChanged(String)
        case searchResponse(String)
        case mergeTapped
        case concatenateTapped
        case logged(String)
        case failingTapped
        case failed(String)
        case startTimerTapped
        case stopTimerTapped
        case timerTicked
    }

    enum CancelID { case delayed, latest, search, timer }

    @Dependency(\.continuousClock) var clock

    /// Two effects, the first started taking longer: merged, "fast" arrives first; concatenated,
    /// "slow" does.
    var slowThenFast: [Effect<Action>] {
        [
            .run { send in
                try await clock.sleep(for: .seconds(2))
                await send(.logged("slow"))
            },
            .run { send in
                try await clock.sleep(for: .seconds(1))
                await send(.logged("fast"))
            },
        ]
    }

    var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .incrementButtonTapped:
                state.count += 1
                return .none

            case .sendTwiceTapped:
                return .merge(.send(.logged("first")), .send(.logged("second")))

            case .delayedIncrementTapped:
                return .run { send in
                    try await clock.sleep(for: .seconds(1))
                    await send(.incrementButtonTapped)
                }
                .cancellable(id: CancelID.delayed)

            case .cancelDelayedTapped:
                return .cancel(id: CancelID.delayed)

            case let .latestWinsTapped(value):
                return .run { send in
                    try await clock.sleep(for: .seconds(1))
                    await send(.logged("latest \(value)"))
                }
                .cancellable(id: CancelID.latest, cancelInFlight: true)

            case let .searchChanged(query):
                return .send(.searchResponse(query))
                    .debounce(id: CancelID.search, for: .milliseconds(300))

            case let .searchResponse(query):
                state.log.append("search \(query)")
                return .none

            case .mergeTapped:
                return .merge(slowThenFast)

            case .concatenateTapped:
                return .concatenate(slowThenFast + [.send(.logged("done"))])

            case let .logged(entry):
                state.log.append(entry)
                return .none

            case .failingTapped:
                struct Failure: Error {}
                return .run { _ in
                    throw Failure()
                } catch: { _, send in
                    await send(.failed("caught"))
                }

            case let .failed(message):
                state.log.append(message)
                return .none

            case .startTimerTapped:
                return .run { send in
                    for await _ in clock.timer(interval: .seconds(1)) {
                        await send(.timerTicked)
                    }
                }
                .cancellable(id: CancelID.timer, cancelInFlight: true)

            case .stopTimerTapped:
                return .cancel(id: CancelID.timer)

            case .timerTicked:
                state.count += 1
                return .none
            }
        }
    }
}

/// A suite testing through `CounterFeature`, on a clock it advances itself.
///
/// Each suite's `init` sets `uncheckedUseMainSerialExecutor = true`: effects run on the global
/// executor, and serializing it onto the main actor makes "the effect has reached its clock
/// sleep before `advance`" deterministic, as TCA recommends.
@MainActor
protocol CounterSuite {
    var clock: TestClock<Duration> { get }
}

extension CounterSuite {
    func makeStore() -> TestStoreOf<CounterFeature> {
        TestStore(initialState: CounterFeature.State()) {
            CounterFeature()
        } withDependencies: { [clock] in
            $0.continuousClock = clock
        }
    }
}
