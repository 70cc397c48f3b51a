import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// Where I am reached: my channels, adding a text, call or e-mail channel, proving it with
/// the code sent to it, and removing one.
///
/// A phone number is typed the way people write it in their country (the region picked, a
/// trunk `0` dropped) and sent in international form. A channel counts only once proved: the
/// list says so ("Waiting for its code") until then, and the code form stays open for it.
public struct ChannelsFeature: Reducer, Sendable {
    /// The kinds a person adds here; app push is registered by the device itself.
    public static let addableKinds: [ChannelKind] = [.sms, .voice, .email]

    public struct State: Equatable, Sendable, ShowsFailures {
        public var channels: IdentifiedArrayOf<Channel> = []
        public var isLoading = false
        public var newKind: ChannelKind = .sms
        /// The number of a new text or call channel.
        public var phone: PhoneNumberFeature.State
        /// The address of a new e-mail channel.
        public var newAddress = ""
        public var isAdding = false
        /// The channel whose code is being typed (a new text, call or e-mail channel).
        public var proving: Channel?
        public var code = ""
        public var isVerifying = false
        public var removingIDs: Set<ChannelID> = []
        @PresentationState public var destination: Destination.State?

        public init(channels: [Channel] = [], region: PhoneRegion = .unitedStates) {
            self.channels = IdentifiedArray(uniqueElements: channels)
            phone = PhoneNumberFeature.State(region: region)
        }

        /// The kind takes a phone number (the region picker shows).
        public var takesPhoneNumber: Bool { newKind == .sms || newKind == .voice }
    }

    @CasePathable
    public enum Action: Equatable, Sendable, BindableAction {
        case binding(BindingAction<State>)
        case task
        case channelsResponse(Result<[Channel], UserFacingError>)
        case kindSelected(ChannelKind)
        case phone(PhoneNumberFeature.Action)
        case addButtonTapped
        case addResponse(Result<Channel, UserFacingError>)
        case codeChanged(String)
        case verifyButtonTapped
        case verifyResponse(Result<Channel, UserFacingError>)
        /// Shows the code form again for a channel still waiting for its code.
        case enterCodeButtonTapped(ChannelID)
        case cancelCodeButtonTapped
        case removeButtonTapped(ChannelID)
        case removeResponse(ChannelID, Result<Bool, UserFacingError>)
        case destination(PresentationAction<Destination.Action>)
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    @Dependency(\.settingsClient) var settingsClient

    public init() {}

    public var body: some ReducerOf<Self> {
        BindingReducer()
        Scope(state: \.phone, action: \.phone) {
            PhoneNumberFeature()
        }
        Reduce { state, action in
            switch action {
            case .task:
                state.isLoading = true
                return .catching(Action.channelsResponse) { try await settingsClient.channels() }

            case let .channelsResponse(.success(channels)):
                state.isLoading = false
                state.channels = IdentifiedArray(uniqueElements: channels.filter { $0.kind != .inApp })
                return .none

            case let .channelsResponse(.failure(error)):
                state.isLoading = false
                state.destination = .alert(.failure(error))
                return .none

            case let .kindSelected(kind):
                guard Self.addableKinds.contains(kind) else { return .none }
                state.newKind = kind
                return .none

            case .phone:
                return .none

            case .binding:
                return .none

            case .addButtonTapped:
                guard !state.isAdding else { return .none }
                let checked = state.checked {
                    ChannelRegistration(
                        kind: $0.newKind,
                        address: try ChannelAddress.validated($0.newKind, $0.takesPhoneNumber ? $0.phone.e164() : $0.newAddress))
                }
                guard let registration = checked else { return .none }
                state.isAdding = true
                return .catching(Action.addResponse) { try await settingsClient.addChannel(registration) }

            case let .addResponse(.success(channel)):
                state.isAdding = false
                if state.takesPhoneNumber { state.phone.number = "" } else { state.newAddress = "" }
                state.channels[id: channel.id] = channel
                if !channel.isVerified {
                    state.proving = channel
                    state.code = ""
                }
                return .none

            case let .addResponse(.failure(error)):
                state.isAdding = false
                state.destination = .alert(.failure(error))
                return .none

            case let .codeChanged(code):
                state.code = Validation.typedCode(code)
                return .none

            case .verifyButtonTapped:
                guard let channel = state.proving, !state.isVerifying else { return .none }
                guard state.code.count == 6 else {
                    state.destination = .alert(
                        .failure(UserFacingError(message: Words.app("app.error.code"), reason: .invalid(field: "code"))))
                    return .none
                }
                state.isVerifying = true
                let code = state.code
                return .catching(Action.verifyResponse) { try await settingsClient.verifyChannel(channel.id, code) }

            case let .verifyResponse(.success(channel)):
                state.isVerifying = false
                state.channels[id: channel.id] = channel
                state.proving = nil
                state.code = ""
                return .none

            case let .verifyResponse(.failure(error)):
                state.isVerifying = false
                state.destination = .alert(.failure(error))
                return .none

            case let .enterCodeButtonTapped(id):
                guard let channel = state.channels[id: id], !channel.isVerified else { return .none }
                state.proving = channel
                state.code = ""
                return .none

            case .cancelCodeButtonTapped:
                state.proving = nil
                state.code = ""
                return .none

            case let .removeButtonTapped(id):
                guard state.channels[id: id] != nil, !state.removingIDs.contains(id) else { return .none }
                state.removingIDs.insert(id)
                return .catching({ .removeResponse(id, $0) }) {
                    try await settingsClient.removeChannel(id)
                    return true
                }

            case let .removeResponse(id, .success):
                state.removingIDs.remove(id)
                state.channels.remove(id: id)
                if state.proving?.id == id { state.proving = nil }
                return .none

            case let .removeResponse(id, .failure(error)):
                state.removingIDs.remove(id)
                state.destination = .alert(.failure(error))
                return .none

            case .destination:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }
}
