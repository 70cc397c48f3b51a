import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalModels

/// The notification history, its read state, the proof of delivery, and the live stream.
@DependencyClient
public struct NotificationClient: Sendable {
    public var list: @Sendable (_ query: NotificationQuery) async throws -> NotificationPage
    public var markRead: @Sendable (_ id: NotificationID) async throws -> Void
    /// Marks everything read; returns how many were unread.
    public var markAllRead: @Sendable () async throws -> Int
    public var delete: @Sendable (_ id: NotificationID) async throws -> Void
    /// Every delivery attempt of a notification ("SMS delivered 09:12").
    public var deliveries: @Sendable (_ id: NotificationID) async throws -> [Delivery]
    /// The live stream (`GET /v1/events`). Starts with the person's status; finishes when
    /// the server closes it and throws `APIError` when it cannot be opened. Cancelling the
    /// consuming task closes the connection.
    public var events: @Sendable () -> AsyncThrowingStream<StreamEvent, any Error> = {
        AsyncThrowingStream { $0.finish() }
    }
}

extension NotificationClient: TestDependencyKey {
    public static let testValue = NotificationClient()

    public static let previewValue = NotificationClient(
        list: { _ in NotificationPage(items: [.preview], unreadCount: 1, nextBefore: nil) },
        markRead: { _ in },
        markAllRead: { 1 },
        delete: { _ in },
        deliveries: { _ in [] },
        events: {
            AsyncThrowingStream { continuation in
                continuation.yield(.status(.preview))
                continuation.finish()
            }
        }
    )
}

extension DependencyValues {
    public var notificationClient: NotificationClient {
        get { self[NotificationClient.self] }
        set { self[NotificationClient.self] = newValue }
    }
}
