import Dependencies
import DependenciesMacros

/// Registering this iPhone for Apple push (APNs): asks the person, then returns the device
/// token the app registers as an `apns` channel. The live value belongs to the iOS target
/// (UNUserNotificationCenter and UIApplication.registerForRemoteNotifications): Linux has no
/// counterpart, so only test and preview values exist here.
@DependencyClient
public struct PushRegistrationClient: Sendable {
    /// Asks for permission to show notifications; false when the person said no.
    public var requestAuthorization: @Sendable () async throws -> Bool
    /// Registers with APNs and returns the device token, as hex.
    public var register: @Sendable () async throws -> String
}

extension PushRegistrationClient: TestDependencyKey {
    public static let testValue = PushRegistrationClient()
    public static let previewValue = PushRegistrationClient(
        requestAuthorization: { true },
        register: { String(repeating: "ab", count: 32) })
}

extension DependencyValues {
    public var pushRegistrationClient: PushRegistrationClient {
        get { self[PushRegistrationClient.self] }
        set { self[PushRegistrationClient.self] = newValue }
    }
}
