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
        router.on(Operations.listNotifications) { query, context in
            try await notifications.notifications(
                context.caller, category: query.category, unreadOnly: query.unreadOnly, before: query.before, limit: query.limit)
        }
        router.on(Operations.markNotificationRead) { input, context in
            try await notifications.markNotificationRead(context.caller, id: input.id)
        }
        router.on(Operations.markAllNotificationsRead) { _, context in
            CountResponse(count: try await notifications.markAllNotificationsRead(context.caller))
        }
        router.on(Operations.deleteNotification) { input, context in
            try await notifications.deleteNotification(context.caller, id: input.id)
        }
        router.on(Operations.listDeliveries) { input, context in
            try await notifications.deliveries(context.caller, notification: input.id)
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
        router.on(Operations.verifyChannel) { input, body, context in
            let id = input.id
            return try await channels.verifyChannel(context.caller, id: id, code: body.code)
        }
        router.on(Operations.removeChannel) { input, context in
            try await channels.removeChannel(context.caller, id: input.id)
        }
        router.on(Operations.getTimeline) { query, context in
            try await timeline.timeline(context.caller, after: query.after, limit: query.limit)
        }
        router.on(Operations.verifyTimeline) { _, context in
            try await timeline.verifyTimeline(context.caller)
        }
    }
}
