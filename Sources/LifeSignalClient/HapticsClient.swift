import Dependencies
import DependenciesMacros

/// Taps the device gives: on check-in, during the SOS hold, on an alert.
@DependencyClient
public struct HapticsClient: Sendable {
    public var play: @Sendable (_ feedback: HapticFeedback) async -> Void
}

public enum HapticFeedback: Hashable, Sendable {
    case selection, light, medium, heavy, success, warning, error
}

extension HapticsClient: TestDependencyKey {
    public static let testValue = HapticsClient()
    public static let previewValue = HapticsClient(play: { _ in })
}

extension DependencyValues {
    public var hapticsClient: HapticsClient {
        get { self[HapticsClient.self] }
        set { self[HapticsClient.self] = newValue }
    }
}
