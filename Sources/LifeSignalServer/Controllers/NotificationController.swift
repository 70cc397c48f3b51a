import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels

/// Notification history, read state, delivery proof and channels.
struct NotificationController {
    let notifications: Notifications
    let channels: Channels
    let timeline: Timeline

    func addRoutes(to router: some RouterMethods<AuthenticatedContext>) {
        router.on(Operations.listNotifications) { request, context in
            try await notifications.notifications(
                context.caller,
                category: try request.query("category", Notification.Category.init(rawValue:)),
                unreadOnly: try request.query("unread") { ["true": true, "false": false][$0] } ?? false,
                before: try request.query("before", ISODate.parse),
                limit: try request.query("limit") { Int($0) } ?? 50
            )
        }
        router.on(Operations.markNotificationRead) { _, context in
            try await notifications.markNotificationRead(context.caller, id: try context.id())
        }
        router.on(Operations.markAllNotificationsRead) { _, context in
            CountResponse(count: try await notifications.markAllNotificationsRead(context.caller))
        }
        router.on(Operations.deleteNotification) { _, context in
            try await notifications.deleteNotification(context.caller, id: try context.id())
        }
        router.on(Operations.listDeliveries) { _, context in
            try await notifications.deliveries(context.caller, notification: try context.id())
        }
        router.on(Operations.listChannels) { _, context in
            try await channels.channels(context.caller)
        }
        router.on(Operations.addChannel) { body, context in
            var registration = body
            if [.sms, .voice].contains(body.kind) {
                registration.address = APIPhone.normalized(body.address)
            }
            try TextableNumbers.check(registration)
            return try await channels.addChannel(context.caller, registration)
        }
        router.on(Operations.verifyChannel) { body, context in
            let id: ChannelID = try context.id()
            return try await channels.verifyChannel(context.caller, id: id, code: body.code)
        }
        router.on(Operations.removeChannel) { _, context in
            try await channels.removeChannel(context.caller, id: try context.id())
        }
        router.on(Operations.getTimeline) { request, context in
            let after = try request.query("after") { Int($0).flatMap { $0 >= 0 ? $0 : nil } } ?? 0
            let limit = try request.query("limit") { Int($0).flatMap { (1...10_000).contains($0) ? $0 : nil } } ?? 1_000
            return try await timeline.timeline(context.caller, after: after, limit: limit)
        }
        router.on(Operations.verifyTimeline) { _, context in
            try await timeline.verifyTimeline(context.caller)
        }
    }
}
