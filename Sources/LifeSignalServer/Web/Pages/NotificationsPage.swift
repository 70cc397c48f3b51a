import LifeSignalModels

/// The notifications, filtered by category or unread, a page at a time.
struct NotificationsPage: WebPage {
    static let template = "notifications"
    static let section: NavSection? = .notifications
    let title = say("web.nav.notifications")
    let categories: [Choice]
    let unreadOnly: Bool
    let unreadCount: Int
    /// "3 unread".
    let unreadLine: String
    let hasUnread: Bool
    let items: [Item]
    let none: Bool
    /// The next page, when there is one.
    let older: String?
    /// This list with its filters, to come back to after a form.
    let back: String

    struct Item {
        let id: String
        let title: String
        let body: String
        let when: String
        let category: String
        let unread: Bool
        let incidentID: String?
        /// The person it is about, unless it is the reader or an incident says more.
        let subjectID: String?
        /// A contact request: it opens Contacts, where it is accepted or declined.
        let isRequest: Bool
    }
}
