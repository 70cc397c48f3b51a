import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels

/// My check-ins, newest first, a page at a time, with pull to refresh.
public struct CheckInHistoryFeature: Reducer, Sendable {
    public static let pageSize = 30

    public struct State: Equatable, Sendable {
        public var checkIns: IdentifiedArrayOf<CheckIn> = []
        public var hasMore = true
        public var isLoading = false
        public var isRefreshing = false
        @PresentationState public var destination: Destination.State?

        public init() {}
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case task
        case loadMore
        case pulledToRefresh
        case pageResponse(Result<[CheckIn], UserFacingError>)
        case refreshResponse(Result<[CheckIn], UserFacingError>)
        case destination(PresentationAction<Destination.Action>)
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    @Dependency(\.checkInClient) var checkInClient

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .task:
                guard state.checkIns.isEmpty, !state.isLoading else { return .none }
                state.isLoading = true
                return .catching(Action.pageResponse) { try await checkInClient.history(nil, Self.pageSize) }

            case .loadMore:
                guard state.hasMore, !state.isLoading, let oldest = state.checkIns.last?.at else { return .none }
                state.isLoading = true
                return .catching(Action.pageResponse) { try await checkInClient.history(oldest, Self.pageSize) }

            case .pulledToRefresh:
                guard !state.isRefreshing else { return .none }
                state.isRefreshing = true
                return .catching(Action.refreshResponse) { try await checkInClient.history(nil, Self.pageSize) }

            case let .pageResponse(.success(page)):
                state.isLoading = false
                state.checkIns.append(contentsOf: page.filter { state.checkIns[id: $0.id] == nil })
                state.hasMore = page.count == Self.pageSize
                return .none

            case let .refreshResponse(.success(page)):
                // The newest page replaces what was shown: the server's word wins.
                state.isRefreshing = false
                state.checkIns = IdentifiedArray(uniqueElements: page)
                state.hasMore = page.count == Self.pageSize
                return .none

            case let .pageResponse(.failure(error)), let .refreshResponse(.failure(error)):
                state.isLoading = false
                state.isRefreshing = false
                state.destination = .alert(.failure(error))
                return .none

            case .destination:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }
}
