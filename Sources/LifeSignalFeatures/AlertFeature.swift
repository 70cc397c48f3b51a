import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels

/// The manual alert (SOS). Five quick taps raise it — a single stray tap must not — and a
/// three-second hold clears it; letting go early cancels the hold.
public struct AlertFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        public var isAlertActive: Bool
        /// Quick taps counted towards raising the alert.
        public var tapCount = 0
        public var isRaising = false
        /// Steps of the clearing hold completed so far.
        public var holdTicks = 0
        public var isHolding = false
        public var isClearing = false
        /// She shares her location during an alert: it is read once after the alert went out.
        public var sharesLocation = false
        /// What her responders are shown of her location since this alert, or that it could
        /// not be read (`couldNotRead`).
        public var location: LocationView?
        @PresentationState public var destination: Destination.State?

        public init(isAlertActive: Bool = false, sharesLocation: Bool = false) {
            self.isAlertActive = isAlertActive
            self.sharesLocation = sharesLocation
        }

        public var tapProgress: Double { Double(tapCount) / Double(AlertFeature.tapsToRaise) }
        public var holdProgress: Double { Double(holdTicks) / Double(AlertFeature.holdSteps) }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case alertButtonTapped
        case tapWindowExpired
        case raiseResponse(Result<Incident, UserFacingError>)
        case clearButtonPressed
        case clearButtonReleased
        case holdTicked
        case clearResponse(Result<CheckInStatus, UserFacingError>)
        case locationResponse(Result<LocationView, UserFacingError>)
        case destination(PresentationAction<Destination.Action>)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            case alertRaised(Incident)
            case alertCleared(CheckInStatus)
        }
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    static let tapsToRaise = 5
    /// The longest pause between two taps that still counts them as one sequence.
    static let tapWindow: Duration = .milliseconds(1500)
    /// The hold lasts `holdSteps × holdStep` = 3 seconds.
    static let holdSteps = 12
    static let holdStep: Duration = .milliseconds(250)

    enum CancelID { case tapWindow, hold }

    @Dependency(\.alertClient) var alertClient
    @Dependency(\.locationClient) var locationClient
    @Dependency(\.hapticsClient) var haptics
    @Dependency(\.continuousClock) var clock

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .alertButtonTapped:
                guard !state.isAlertActive, !state.isRaising else { return .none }
                state.tapCount += 1
                guard state.tapCount >= Self.tapsToRaise else {
                    return .merge(
                        .run { _ in await haptics.play(.light) },
                        .run { send in
                            try await clock.sleep(for: Self.tapWindow)
                            await send(.tapWindowExpired)
                        }
                        .cancellable(id: CancelID.tapWindow, cancelInFlight: true)
                    )
                }
                state.isRaising = true
                return .merge(
                    .cancel(id: CancelID.tapWindow),
                    .run { send in
                        await haptics.play(.heavy)
                        await send(.raiseResponse(Result.catching { try await alertClient.raise() }))
                    }
                )

            case .tapWindowExpired:
                state.tapCount = 0
                return .none

            case let .raiseResponse(.success(incident)):
                state.isRaising = false
                state.tapCount = 0
                state.isAlertActive = true
                guard state.sharesLocation else { return .send(.delegate(.alertRaised(incident))) }
                // The alert is out already: only now is her position read, once, and sent;
                // a position that cannot be read is sent as such.
                return .concatenate(
                    .send(.delegate(.alertRaised(incident))),
                    .run { send in
                        let reading = try? await locationClient.currentPosition()
                        await send(.locationResponse(Result.catching { try await locationClient.record(reading, .sos) }))
                    }
                )

            case let .locationResponse(.success(view)):
                state.location = view
                return .none

            case .locationResponse(.failure):
                // Her alert went out; a location that could not be sent is not worth an alert
                // over it (sharing may have been turned off meanwhile).
                return .none

            case let .raiseResponse(.failure(error)):
                state.isRaising = false
                state.tapCount = 0
                state.destination = .alert(.failure(error))
                return .none

            case .clearButtonPressed:
                guard state.isAlertActive, !state.isHolding, !state.isClearing else { return .none }
                state.isHolding = true
                state.holdTicks = 0
                return .run { send in
                    for _ in 0..<Self.holdSteps {
                        try await clock.sleep(for: Self.holdStep)
                        await send(.holdTicked)
                    }
                }
                .cancellable(id: CancelID.hold, cancelInFlight: true)

            case .clearButtonReleased:
                guard state.isHolding else { return .none }
                state.isHolding = false
                state.holdTicks = 0
                return .cancel(id: CancelID.hold)

            case .holdTicked:
                guard state.isHolding else { return .none }
                state.holdTicks += 1
                guard state.holdTicks >= Self.holdSteps else { return .none }
                state.isHolding = false
                state.isClearing = true
                return .run { send in
                    await haptics.play(.success)
                    await send(.clearResponse(Result.catching { try await alertClient.clear() }))
                }

            case let .clearResponse(.success(status)):
                state.isClearing = false
                state.holdTicks = 0
                state.isAlertActive = status.state == .alert
                return .send(.delegate(.alertCleared(status)))

            case let .clearResponse(.failure(error)):
                state.isClearing = false
                state.holdTicks = 0
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
