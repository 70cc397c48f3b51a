import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalModels

/// The person's days off (``Pause``): planned ahead, listed, called off.
@DependencyClient
public struct PauseClient: Sendable {
    /// Her pauses that have not ended, earliest first.
    public var pauses: @Sendable () async throws -> [Pause]
    /// A pause from `from` (now when nil) until `until`.
    public var add: @Sendable (_ from: Date?, _ until: Date, _ openIncident: OpenIncidentChoice?) async throws -> Pause
    /// Ends it now when it holds; takes it away when it has not begun.
    public var remove: @Sendable (_ id: PauseID) async throws -> CheckInStatus
}

extension PauseClient: TestDependencyKey {
    public static let testValue = PauseClient()

    public static let previewValue = PauseClient(
        pauses: { [] },
        add: { from, until, _ in
            let now = Date()
            return Pause(id: PauseID(UUID()), from: from ?? now, until: until, setBy: User.preview.id, setByName: "Ada", setAt: now)
        },
        remove: { _ in .preview }
    )
}

extension DependencyValues {
    public var pauseClient: PauseClient {
        get { self[PauseClient.self] }
        set { self[PauseClient.self] = newValue }
    }
}
