import ArgumentParser
import Foundation
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels

/// `lifesignal notifications`: the notification history, newest first.
struct NotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "notifications", abstract: "Your notifications, newest first.")

    @OptionGroup var options: ClientOptions

    @Flag(help: "Only unread ones.")
    var unread = false

    @Option(help: "alerts, pings, contacts or system.")
    var category: String?

    @Option(help: "How many (1–200).")
    var limit = 50

    @Flag(help: "Mark them all read afterwards.")
    var markRead = false

    func run() async throws {
        let category = try self.category.map { text in
            guard let value = LifeSignalModels.Notification.Category(rawValue: text) else {
                throw ValidationError(
                    "--category must be one of \(LifeSignalModels.Notification.Category.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return value
        }
        guard (1...200).contains(limit) else { throw ValidationError("--limit must be between 1 and 200") }
        try await ClientContext.run(options) { context in
            let page = try await context.notifications.list(
                query: NotificationQuery(category: category, unreadOnly: unread, limit: limit))
            if markRead { _ = try await context.notifications.markAllRead() }
            if context.json { return try Terminal.printJSON(page) }
            if page.items.isEmpty {
                return Terminal.print(Formatting.words(unread ? "cli.notifications.noneUnread" : "cli.notifications.none"))
            }
            for item in page.items {
                Terminal.print("\(item.isRead ? " " : "•") \(Formatting.time(item.createdAt))  \(item.title): \(item.body)")
            }
            Terminal.print(Formatting.words("cli.notifications.unread", count: page.unreadCount))
        }
    }
}
