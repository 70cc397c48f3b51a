import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels

/// Check-in links for a button, a sensor or a shortcut: list, make one (its address shown
/// once, right after), revoke. A link may end an open missed check-in only if she says so;
/// otherwise its calls are shown to her responders as activity.
public struct DeviceLinksFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        public var links: IdentifiedArrayOf<DeviceLink> = []
        public var isLoading = false
        public var revokingIDs: Set<DeviceLinkID> = []
        public var name = ""
        /// Off by default: a sensor firing is not her saying she is fine.
        public var resolvesAlerts = false
        public var isCreating = false
        /// The link just made, with its address: shown once, never again.
        public var created: NewDeviceLink?
        @PresentationState public var destination: Destination.State?

        public init() {}

        /// No more links can be made (``DeviceLink/limit``).
        public var isFull: Bool { links.count >= DeviceLink.limit }
    }

    @CasePathable
    public enum Action: Equatable, Sendable, BindableAction {
        case binding(BindingAction<State>)
        case task
        case linksResponse(Result<[DeviceLink], UserFacingError>)
        case createButtonTapped
        case createResponse(Result<NewDeviceLink, UserFacingError>)
        /// She copied the address or closed it: it is not shown again.
        case createdDismissed
        case revokeButtonTapped(DeviceLinkID)
        case revokeResponse(DeviceLinkID, Result<Bool, UserFacingError>)
        case destination(PresentationAction<Destination.Action>)
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    @Dependency(\.deviceLinkClient) var deviceLinkClient

    public init() {}

    public var body: some ReducerOf<Self> {
        BindingReducer()
        Reduce { state, action in
            switch action {
            case .task:
                state.isLoading = true
                return .catching(Action.linksResponse) { try await deviceLinkClient.links() }

            case let .linksResponse(.success(links)):
                state.isLoading = false
                state.links = IdentifiedArray(uniqueElements: links)
                return .none

            case .binding:
                return .none

            case .createButtonTapped:
                let name = state.name.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !state.isCreating else { return .none }
                guard !name.isEmpty else {
                    state.destination = .alert(
                        .failure(
                            UserFacingError(message: Words.app("app.error.deviceLinkName"), reason: .invalid(field: "name"))))
                    return .none
                }
                state.isCreating = true
                let resolvesAlerts = state.resolvesAlerts
                return .catching(Action.createResponse) { try await deviceLinkClient.create(name, resolvesAlerts) }

            case let .createResponse(.success(made)):
                state.isCreating = false
                state.name = ""
                state.resolvesAlerts = false
                state.created = made
                state.links.append(made.link)
                return .none

            case .createdDismissed:
                state.created = nil
                return .none

            case let .revokeButtonTapped(id):
                guard state.links[id: id] != nil, !state.revokingIDs.contains(id) else { return .none }
                state.revokingIDs.insert(id)
                return .catching({ .revokeResponse(id, $0) }) {
                    try await deviceLinkClient.revoke(id)
                    return true
                }

            case let .revokeResponse(id, .success):
                state.revokingIDs.remove(id)
                state.links.remove(id: id)
                if state.created?.link.id == id { state.created = nil }
                return .none

            case let .revokeResponse(id, .failure(error)):
                state.revokingIDs.remove(id)
                state.destination = .alert(.failure(error))
                return .none

            case let .linksResponse(.failure(error)), let .createResponse(.failure(error)):
                state.isLoading = false
                state.isCreating = false
                state.destination = .alert(.failure(error))
                return .none

            case .destination:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }
}
