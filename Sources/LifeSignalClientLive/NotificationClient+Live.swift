import Dependencies
import Foundation
import LifeSignalClient
import LifeSignalAPI
import LifeSignalModels
import NIOCore

extension NotificationClient: DependencyKey {
    public static var liveValue: NotificationClient { .live(api: .fromEnvironment()) }

    public static func live(api: APIClient) -> NotificationClient {
        NotificationClient(
            list: { query in
                try await api.send(Operations.listNotifications, query)
            },
            markRead: { id in try await api.send(Operations.markNotificationRead, ByID(id)) },
            markAllRead: {
                let response: CountResponse = try await api.send(Operations.markAllNotificationsRead)
                return response.count
            },
            delete: { id in try await api.send(Operations.deleteNotification, ByID(id)) },
            deliveries: { id in try await api.send(Operations.listDeliveries, ByID(id)) },
            events: {
                AsyncThrowingStream { continuation in
                    let task = Task {
                        do {
                            let body = try await api.stream(Operations.streamEvents)
                            var parser = ServerSentEventParser()
                            for try await chunk in body {
                                for event in parser.feed(chunk.readableBytesView) {
                                    if let decoded = try StreamEvent(event) { continuation.yield(decoded) }
                                }
                            }
                            continuation.finish()
                        } catch is CancellationError {
                            continuation.finish()
                        } catch {
                            continuation.finish(throwing: Task.isCancelled ? nil : APIClient.transportError(error))
                        }
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
            }
        )
    }
}

extension StreamEvent {
    /// The event a frame of `/v1/events` carries; nil for names this client doesn't know,
    /// so a newer server can add events without breaking older apps.
    public init?(_ event: ServerSentEvent) throws {
        let data = Data(event.data.utf8)
        do {
            switch event.name {
            case "status": self = .status(try APICoding.decoder.decode(CheckInStatus.self, from: data))
            case "notification": self = .notification(try APICoding.decoder.decode(LifeSignalModels.Notification.self, from: data))
            case "contacts": self = .contactsChanged
            default: return nil
            }
        } catch {
            throw APIError.invalidResponse(status: 200, "event \(event.name): \(error)")
        }
    }
}
