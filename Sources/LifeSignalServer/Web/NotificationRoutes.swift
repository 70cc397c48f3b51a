import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalModels

/// The web app's pages for the notification history and the delivery attempts behind each notification.
struct NotificationRoutes: WebPageGroup {
    let pages: WebPages
    let notifications: Notifications

    func addRoutes(to web: RouterGroup<WebContext>) {
        web.get("/notifications") { request, context in
            try await signedIn(context) { caller in
                let query = request.uri.queryParameters
                let category = query.get("category").flatMap(Notification.Category.init(rawValue:))
                let unreadOnly = query.get("unread") == "1"
                let before = query.get("before").flatMap(Int64.init).map { Date(timeIntervalSince1970: Double($0) / 1000) }
                let page = try await notifications.notifications(
                    caller, category: category, unreadOnly: unreadOnly, before: before, limit: 25)
                var filter = "?"
                if let category { filter += "category=\(category.rawValue)&" }
                if unreadOnly { filter += "unread=1&" }
                let items = page.items.map { item in
                    let subject = item.subjectUserID.flatMap { $0 == caller.user.id ? nil : $0.description }
                    return NotificationsPage.Item(
                        id: item.id.description, title: item.title, body: item.body, when: WebController.formatDate(item.createdAt),
                        category: WebController.categoryLabels.first { $0.0 == item.category }.map { say($0.1) } ?? item.category.rawValue,
                        unread: !item.isRead, incidentID: item.incidentID?.description,
                        subjectID: item.incidentID == nil && ![.contactRequested, .contactRemoved].contains(item.type) ? subject : nil,
                        isRequest: item.type == .contactRequested)
                }
                return try await self.page(
                    NotificationsPage(
                        categories: [Choice(value: "", label: say("web.notifications.everything"), selected: category == nil)]
                            + WebController.categoryLabels.map {
                                Choice(value: $0.0.rawValue, label: say($0.1), selected: $0.0 == category)
                            },
                        unreadOnly: unreadOnly, unreadCount: page.unreadCount,
                        unreadLine: say("web.notifications.unreadCount", count: page.unreadCount), hasUnread: page.unreadCount > 0,
                        items: items, none: items.isEmpty,
                        older: page.nextBefore.map { "/notifications\(filter)before=\(WebController.millis($0))" },
                        back: "/notifications\(filter == "?" ? "" : String(filter.dropLast()))"
                    ), context: context)
            }
        }
        web.post("/notifications/read-all") { _, context in
            try await action(context, to: back(context.form, default: "/notifications")) { caller in
                let count = try await notifications.markAllNotificationsRead(caller)
                return say("web.notifications.markedRead", count: count)
            }
        }
        web.post("/notifications/{id}/read") { _, context in
            try await action(context, to: back(context.form, default: "/notifications")) { caller in
                try await notifications.markNotificationRead(caller, id: try notificationID(context))
                return nil
            }
        }
        web.post("/notifications/{id}/delete") { _, context in
            try await action(context, to: back(context.form, default: "/notifications")) { caller in
                try await notifications.deleteNotification(caller, id: try notificationID(context))
                return say("web.notifications.deleted")
            }
        }
    }

    private func notificationID(_ context: WebContext) throws -> NotificationID {
        guard let id = context.parameters.get("id").flatMap(NotificationID.init(string:)) else {
            throw ServiceError(.notFound, code: .notFound, say("web.notifications.gone"))
        }
        return id
    }

    /// A same-site path to go back to after a form (never another site).
    func back(_ form: [String: String], default path: String) -> String {
        guard let back = form["back"], back.hasPrefix("/"), !back.hasPrefix("//"), !back.contains("\\") else { return path }
        return back
    }
}

extension WebController {
    /// The categories in their order, each with its catalogue key (`say(key)` names it).
    static let categoryLabels: [(Notification.Category, String)] = [
        (.alerts, "web.category.alerts"), (.pings, "web.category.pings"), (.contacts, "web.category.contacts"),
        (.system, "web.category.system"),
    ]
}
