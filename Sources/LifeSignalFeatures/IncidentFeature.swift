import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels

/// The incident screen a responder acts from: who is in trouble and since when, who was
/// told and how each delivery went, "I'm on it", resolving it where the server allows,
/// checking in on their behalf, live updates from the event stream, and the all-clear.
///
/// Reached from the dependents list (a dependent with an open alert), a notification or a
/// push: whatever presents it knows the incident's id.
public struct IncidentFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        public var incidentID: IncidentID
        /// The person looking: a responder, or the person whose incident it is.
        public var viewerID: UserID?
        /// Shown until the report arrives ("Ada").
        public var personName: String
        public var report: IncidentReport?
        public var isLoading = false
        /// An acknowledgement, resolution or check-in on their behalf is on its way.
        public var isBusy = false
        /// Following the event stream for this person.
        public var isLive = false
        @PresentationState public var destination: Destination.State?
        /// The all-clear was given: the incident is over and the parent was told.
        public var isOver = false
        /// The person's sealed details, once a responder opened them (she is told). Gone again
        /// when the incident is over.
        public var sealedDetails: String?
        /// Where the alert is on her ladder, from the last report: nil when it tells everyone at
        /// once and nobody is left to call.
        public var ladder: LadderProgress?

        public init(incidentID: IncidentID, personName: String = "", viewerID: UserID? = nil) {
            self.incidentID = incidentID
            self.personName = personName
            self.viewerID = viewerID
        }

        public var incident: Incident? { report?.incident }
        public var isOpen: Bool { incident?.isOpen ?? true }
        /// The person in trouble.
        public var personID: UserID? { report?.user.userID }
        /// Who said "I'm on it", if anyone ("Bob Tester").
        public var acknowledgedByName: String? { report?.acknowledgedByName }
        public var isMine: Bool { viewerID != nil && viewerID == personID }
        public var isAcknowledgedByMe: Bool { viewerID != nil && incident?.acknowledgedBy == viewerID }

        /// "I'm on it" is for responders, while it is open and not already theirs.
        public var canAcknowledge: Bool { report != nil && isOpen && !isMine && !isAcknowledgedByMe && !isBusy }
        /// A missed check-in may be resolved by any responder; an SOS only by the one who
        /// said "I'm on it" (the server has the last word and its refusal is shown).
        public var canResolve: Bool {
            guard let incident, isOpen, !isMine, !isBusy else { return false }
            return incident.kind == .missedCheckIn || isAcknowledgedByMe
        }
        public var canCheckInOnBehalf: Bool { report != nil && isOpen && !isMine && !isBusy }
        /// A responder may open the person's sealed details while the incident is open.
        public var canOpenSealedDetails: Bool { report != nil && isOpen && !isMine && !isBusy && sealedDetails == nil }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case task
        case reportResponse(Result<IncidentReport, UserFacingError>)
        case acknowledgeButtonTapped
        case acknowledgeResponse(Result<Incident, UserFacingError>)
        case resolveButtonTapped
        case resolveResponse(Result<Incident, UserFacingError>)
        case checkInOnBehalfButtonTapped
        case checkInOnBehalfResponse(Result<CheckInResult, UserFacingError>)
        case sealedDetailsButtonTapped
        case sealedDetailsResponse(Result<SealedDetailsView, UserFacingError>)
        case streamEvent(StreamEvent)
        case streamEnded(UserFacingError?)
        /// "My timeline", for the person the incident is about.
        case timelineButtonTapped
        case destination(PresentationAction<Destination.Action>)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            /// The incident is over (checked in, cleared, resolved): the parent closes the screen.
            case allClear(Incident)
            /// I checked in for them; their status changed.
            case checkedInOnBehalf(CheckInResult)
            /// The person the incident is about asked for their timeline.
            case timelineRequested
        }
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    enum CancelID { case report, stream }

    @Dependency(\.alertClient) var alertClient
    @Dependency(\.notificationClient) var notificationClient
    @Dependency(\.timeZone) var timeZone
    @Dependency(\.uuid) var uuid

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .task:
                state.isLive = true
                return .merge(
                    load(&state),
                    .liveEvents(notificationClient, event: Action.streamEvent, ended: Action.streamEnded)
                        .cancellable(id: CancelID.stream, cancelInFlight: true)
                )

            case let .reportResponse(.success(report)):
                state.isLoading = false
                state.report = report
                // The device's zone is read only for a ladder with a next step to show.
                state.ladder = LadderProgress(report.incident, words: Words.app, timeZone: timeZone)
                state.personName = report.user.firstName
                return report.incident.isOpen ? .none : allClear(report.incident, &state)

            case let .reportResponse(.failure(error)):
                state.isLoading = false
                state.destination = .alert(.failure(error))
                return .none

            case .acknowledgeButtonTapped:
                guard state.canAcknowledge else { return .none }
                state.isBusy = true
                let id = state.incidentID
                return .catching(Action.acknowledgeResponse) { try await alertClient.acknowledge(id) }

            case let .acknowledgeResponse(.success(incident)):
                state.isBusy = false
                state.report?.incident = incident
                // The server records the caller as the one on it: that is who is looking.
                if state.viewerID == nil { state.viewerID = incident.acknowledgedBy }
                // The report names who is on it and shows what was sent since.
                return load(&state)

            case .resolveButtonTapped:
                guard state.report != nil, state.isOpen, !state.isMine, !state.isBusy else { return .none }
                state.isBusy = true
                let id = state.incidentID
                return .catching(Action.resolveResponse) { try await alertClient.resolve(id) }

            case let .resolveResponse(.success(incident)):
                state.isBusy = false
                state.report?.incident = incident
                return incident.isOpen ? .none : allClear(incident, &state)

            case .checkInOnBehalfButtonTapped:
                guard state.canCheckInOnBehalf, let personID = state.personID else { return .none }
                state.isBusy = true
                let checkInID = CheckInID(uuid())
                return .catching(Action.checkInOnBehalfResponse) {
                    try await alertClient.checkInOnBehalf(personID, checkInID)
                }

            case let .checkInOnBehalfResponse(.success(result)):
                state.isBusy = false
                // A missed check-in closes with it; an SOS stays open: the report says which.
                return .merge(.send(.delegate(.checkedInOnBehalf(result))), load(&state))

            case .sealedDetailsButtonTapped:
                guard state.canOpenSealedDetails else { return .none }
                state.isBusy = true
                let id = state.incidentID
                return .catching(Action.sealedDetailsResponse) { try await alertClient.openSealedDetails(id) }

            case let .sealedDetailsResponse(.success(view)):
                state.isBusy = false
                state.sealedDetails = state.isOver ? nil : view.details
                return .none

            case let .acknowledgeResponse(.failure(error)), let .resolveResponse(.failure(error)),
                let .checkInOnBehalfResponse(.failure(error)), let .sealedDetailsResponse(.failure(error)):
                state.isBusy = false
                state.destination = .alert(.failure(error))
                return .none

            case let .streamEvent(.status(status)):
                // Their status changed: someone checked in, acknowledged or resolved.
                guard status.userID == state.personID else { return .none }
                return load(&state)

            case let .streamEvent(.notification(notification)):
                guard notification.incidentID == state.incidentID else { return .none }
                return load(&state)

            case .streamEvent(.contactsChanged):
                return .none

            case let .streamEnded(error):
                state.isLive = false
                if let error { state.destination = .alert(.failure(error)) }
                return .none

            case .timelineButtonTapped:
                // Only one's own timeline can be read.
                guard state.isMine else { return .none }
                return .send(.delegate(.timelineRequested))

            case .destination:
                return .none

            case .delegate:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }

    private func load(_ state: inout State) -> Effect<Action> {
        state.isLoading = true
        let id = state.incidentID
        return .catching(Action.reportResponse) { try await alertClient.incidentReport(id) }
            .cancellable(id: CancelID.report, cancelInFlight: true)
    }

    /// Once over, it stays over: the stream stops and the parent is told once.
    private func allClear(_ incident: Incident, _ state: inout State) -> Effect<Action> {
        guard !state.isOver else { return .none }
        state.isOver = true
        state.isLive = false
        state.sealedDetails = nil
        return .merge(.cancel(id: CancelID.stream), .send(.delegate(.allClear(incident))))
    }
}
