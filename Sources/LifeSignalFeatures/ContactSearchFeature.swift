import ComposableCore
import Foundation
import LifeSignalRules

/// The search field above a contact list (responders, dependents): what is typed applies
/// once typing pauses for ``debounce``, so a long list is not filtered on every keystroke.
/// The list shows `ContactSearch.filter(contacts, query: search.query)`.
public struct ContactSearchFeature: Reducer, Sendable {
    public static let debounce: Duration = .milliseconds(300)

    public struct State: Equatable, Sendable {
        /// What is in the field.
        public var text = ""
        /// What the list is filtered by.
        public var query = ""

        public init() {}
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case textChanged(String)
        case queryApplied(String)
        case clearButtonTapped
    }

    enum CancelID { case debounce }

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case let .textChanged(text):
                state.text = text
                return .send(.queryApplied(text)).debounce(id: CancelID.debounce, for: Self.debounce)

            case let .queryApplied(query):
                state.query = query
                return .none

            case .clearButtonTapped:
                state.text = ""
                state.query = ""
                return .cancel(id: CancelID.debounce)
            }
        }
    }
}
