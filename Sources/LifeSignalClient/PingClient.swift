import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalModels

/// "Are you OK?" from a responder to a dependent, and the dependent's answers.
@DependencyClient
public struct PingClient: Sendable {
    /// Pings a dependent (one pending ping per pair).
    public var send: @Sendable (_ dependentID: UserID) async throws -> Ping
    /// Withdraws a ping the caller sent.
    public var clear: @Sendable (_ id: PingID) async throws -> Void
    /// Answers one ping; counts as a check-in with `checkInID`.
    public var answer: @Sendable (_ id: PingID, _ checkInID: CheckInID) async throws -> CheckInResult
    /// Answers every pending ping; counts as one check-in.
    public var answerAll: @Sendable (_ checkInID: CheckInID) async throws -> CheckInResult
    /// Answers one ping "I need help": raises an emergency alert (not a check-in).
    public var needHelp: @Sendable (_ id: PingID) async throws -> Incident
}

extension PingClient: TestDependencyKey {
    public static let testValue = PingClient()

    public static let previewValue = PingClient(
        send: { dependentID in
            Ping(id: PingID(UUID()), fromUserID: User.preview.id, toUserID: dependentID, sentAt: Date())
        },
        clear: { _ in },
        answer: { _, checkInID in
            CheckInResult(
                checkIn: CheckIn(id: checkInID, userID: User.preview.id, at: Date(), source: .pingAnswer),
                status: .preview, duplicate: false)
        },
        answerAll: { checkInID in
            CheckInResult(
                checkIn: CheckIn(id: checkInID, userID: User.preview.id, at: Date(), source: .pingAnswer),
                status: .preview, duplicate: false)
        },
        needHelp: { _ in
            Incident(id: IncidentID(UUID()), userID: User.preview.id, kind: .manualAlert, openedAt: Date(), dueAt: Date())
        }
    )
}

extension DependencyValues {
    public var pingClient: PingClient {
        get { self[PingClient.self] }
        set { self[PingClient.self] = newValue }
    }
}
