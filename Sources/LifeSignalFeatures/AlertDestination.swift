import ComposableCore

/// What a screen that presents nothing but its failures shows over itself: an alert (see
/// `AlertState.failure(_:)`). Such a feature says `typealias Destination = AlertDestination`
/// and `.ifLet(\.$destination, action: \.destination)` (it has no logic to run);
/// a screen that presents more (a sheet, a confirmation) has its own `Destination` with an
/// `alert` case beside the rest.
public struct AlertDestination: Reducer {
    @CasePathable
    public enum State: Equatable, Sendable {
        case alert(AlertState<Never>)
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case alert(Never)
    }

    public init() {}

    public var body: some ReducerOf<Self> {
        EmptyReducer()
    }
}
