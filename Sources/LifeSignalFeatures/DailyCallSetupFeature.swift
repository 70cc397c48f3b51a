import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels

/// "Set up daily calls for Mum": the requests I made with where each stands, a form for a new
/// one (her first name, number — a landline is fine —, time and zone), and taking back one she
/// has not answered. Nothing runs until she agrees on the first call; the server says so.
public struct DailyCallSetupFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        public var setups: [DailyCallSetup] = []
        public var firstName = ""
        public var lastName = ""
        public var phone = ""
        /// `HH:MM` of her daily call.
        public var time = "09:00"
        /// Her zone; this device's by default.
        public var timeZone: String
        public var isLoading = false
        public var isSaving = false
        @PresentationState public var destination: Destination.State?

        public init(timeZone: String = TimeZone.current.identifier) {
            self.timeZone = timeZone
        }

        /// Saving needs her first name (the call greets her by it) and a number.
        public var canSave: Bool {
            !firstName.trimmingCharacters(in: .whitespaces).isEmpty && !phone.trimmingCharacters(in: .whitespaces).isEmpty
                && !isSaving
        }
    }

    @CasePathable
    public enum Action: Equatable, Sendable, BindableAction {
        case binding(BindingAction<State>)
        case task
        case listResponse(Result<[DailyCallSetup], UserFacingError>)
        case saveButtonTapped
        case saveResponse(Result<DailyCallSetup, UserFacingError>)
        case cancelTapped(DailyCallSetupID)
        case cancelResponse(Result<DailyCallSetup, UserFacingError>)
        case destination(PresentationAction<Destination.Action>)
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    @Dependency(\.dailyCallClient) var dailyCallClient

    public init() {}

    public var body: some ReducerOf<Self> {
        BindingReducer()
        Reduce { state, action in
            switch action {
            case .task:
                state.isLoading = true
                return .catching(Action.listResponse) { try await dailyCallClient.list() }

            case let .listResponse(.success(setups)):
                state.isLoading = false
                state.setups = setups
                return .none

            case let .listResponse(.failure(error)), let .saveResponse(.failure(error)), let .cancelResponse(.failure(error)):
                state.isLoading = false
                state.isSaving = false
                state.destination = .alert(.failure(error))
                return .none

            case .binding:
                return .none

            case .saveButtonTapped:
                guard state.canSave else { return .none }
                state.isSaving = true
                let (first, last, phone, time, zone) = (
                    state.firstName.trimmingCharacters(in: .whitespaces), state.lastName.trimmingCharacters(in: .whitespaces),
                    state.phone.trimmingCharacters(in: .whitespaces), state.time, state.timeZone
                )
                return .catching(Action.saveResponse) { try await dailyCallClient.setUp(first, last, phone, time, zone) }

            case let .saveResponse(.success(setup)):
                state.isSaving = false
                state.setups.insert(setup, at: 0)
                (state.firstName, state.lastName, state.phone) = ("", "", "")
                return .none

            case let .cancelTapped(id):
                return .catching(Action.cancelResponse) { try await dailyCallClient.cancel(id) }

            case let .cancelResponse(.success(setup)):
                if let index = state.setups.firstIndex(where: { $0.id == setup.id }) { state.setups[index] = setup }
                return .none

            case .destination:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }
}
