import Dependencies
import DependenciesMacros
import Foundation

/// The check-in reminder the device shows on its own, even offline (iOS: UserNotifications).
@DependencyClient
public struct LocalNotificationClient: Sendable {
    /// Asks the person for permission; true when granted.
    public var requestAuthorization: @Sendable () async throws -> Bool
    /// Schedules (or replaces, by `id`) a reminder.
    public var schedule: @Sendable (_ reminder: LocalReminder) async throws -> Void
    /// Cancels the reminders with these ids.
    public var cancel: @Sendable (_ ids: [String]) async -> Void
    public var cancelAll: @Sendable () async -> Void
}

/// A reminder the device shows at `fireAt`.
public struct LocalReminder: Hashable, Sendable {
    public var id: String
    public var fireAt: Date
    public var title: String
    public var body: String

    public init(id: String, fireAt: Date, title: String, body: String) {
        self.id = id
        self.fireAt = fireAt
        self.title = title
        self.body = body
    }
}

extension LocalNotificationClient: TestDependencyKey {
    public static let testValue = LocalNotificationClient()
    public static let previewValue = LocalNotificationClient(
        requestAuthorization: { true }, schedule: { _ in }, cancel: { _ in }, cancelAll: {})
}

extension DependencyValues {
    public var localNotificationClient: LocalNotificationClient {
        get { self[LocalNotificationClient.self] }
        set { self[LocalNotificationClient.self] = newValue }
    }
}
