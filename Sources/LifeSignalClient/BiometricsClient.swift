import Dependencies
import DependenciesMacros

/// Face ID / Touch ID before sensitive actions (iOS: LocalAuthentication).
@DependencyClient
public struct BiometricsClient: Sendable {
    /// Whether the device can authenticate the person biometrically.
    public var isAvailable: @Sendable () async -> Bool = { false }
    /// Asks the person to authenticate; true when they did.
    public var authenticate: @Sendable (_ reason: String) async throws -> Bool
}

extension BiometricsClient: TestDependencyKey {
    public static let testValue = BiometricsClient()
    public static let previewValue = BiometricsClient(isAvailable: { true }, authenticate: { _ in true })
}

extension DependencyValues {
    public var biometricsClient: BiometricsClient {
        get { self[BiometricsClient.self] }
        set { self[BiometricsClient.self] = newValue }
    }
}
