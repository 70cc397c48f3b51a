import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels

/// Requests to link: the ones others sent me (accept or decline, each saying who would watch
/// whom) and the ones I sent (withdraw while pending).
public struct ContactRequestsFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        public var incoming: IdentifiedArrayOf<ContactRequest> = []
        public var outgoing: IdentifiedArrayOf<ContactRequest> = []
        public var isLoading = false
        /// Requests being accepted, declined or withdrawn.
        public var busyIDs: Set<ContactRequestID> = []
        @PresentationState public var destination: Destination.State?

        public init(incoming: [ContactRequest] = [], outgoing: [ContactRequest] = []) {
            self.incoming = IdentifiedArray(uniqueElements: incoming)
            self.outgoing = IdentifiedArray(uniqueElements: outgoing)
        }

        /// Requests waiting for my answer (the badge).
        public var pendingIncomingCount: Int { incoming.filter(\.isPending).count }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case task
        case requestsResponse(Result<ContactRequestLists, UserFacingError>)
        case acceptButtonTapped(ContactRequestID)
        case acceptResponse(ContactRequestID, Result<Contact, UserFacingError>)
        /// Declines a request sent to me, or withdraws one I sent.
        case declineButtonTapped(ContactRequestID)
        case declineResponse(ContactRequestID, Result<ContactRequest, UserFacingError>)
        case destination(PresentationAction<Destination.Action>)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            /// A request was accepted: the contact lists changed.
            case contactAccepted(Contact)
        }
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    @Dependency(\.contactClient) var contactClient

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .task:
                state.isLoading = true
                return .catching(Action.requestsResponse) { try await contactClient.requests() }

            case let .requestsResponse(.success(lists)):
                state.isLoading = false
                state.incoming = IdentifiedArray(uniqueElements: lists.incoming)
                state.outgoing = IdentifiedArray(uniqueElements: lists.outgoing)
                return .none

            case let .requestsResponse(.failure(error)):
                state.isLoading = false
                state.destination = .alert(.failure(error))
                return .none

            case let .acceptButtonTapped(id):
                guard let request = state.incoming[id: id], request.isPending, !state.busyIDs.contains(id) else { return .none }
                state.busyIDs.insert(id)
                // The roles on the screen are what the person says yes to.
                return .catching({ .acceptResponse(id, $0) }) { [roles = request.roles] in
                    try await contactClient.acceptRequest(id, roles)
                }

            case let .acceptResponse(id, .success(contact)):
                state.busyIDs.remove(id)
                state.incoming[id: id]?.state = .accepted
                return .send(.delegate(.contactAccepted(contact)))

            case let .declineButtonTapped(id):
                let request = state.incoming[id: id] ?? state.outgoing[id: id]
                guard request?.isPending == true, !state.busyIDs.contains(id) else { return .none }
                state.busyIDs.insert(id)
                return .catching({ .declineResponse(id, $0) }) { try await contactClient.declineRequest(id) }

            case let .declineResponse(id, .success(request)):
                state.busyIDs.remove(id)
                if state.incoming[id: id] != nil { state.incoming[id: id] = request }
                if state.outgoing[id: id] != nil { state.outgoing[id: id] = request }
                return .none

            case let .acceptResponse(id, .failure(error)), let .declineResponse(id, .failure(error)):
                state.busyIDs.remove(id)
                state.destination = .alert(.failure(error))
                return .none

            case .destination:
                return .none

            case .delegate:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }
}
