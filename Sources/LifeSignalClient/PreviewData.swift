import Foundation
import LifeSignalModels

// Sample values for previews and the clients' `previewValue`s. Fixed ids and dates, so
// previews and snapshot-style tests are stable.

private let previewNow = Date(timeIntervalSince1970: 1_795_000_000)

extension User {
    public static let preview = User(
        id: UserID(UUID(uuidString: "00000000-0000-4000-8000-000000000001")!), phone: "+14155550101",
        firstName: "Ada", lastName: "Lovelace", emergencyNote: "Allergic to penicillin.",
        lastCheckInAt: previewNow.addingTimeInterval(-3600), createdAt: previewNow.addingTimeInterval(-86400 * 30),
        contactCode: "0123456789abcdef0123456789abcdef", isOnboarded: true)
}

extension Session {
    public static let preview = Session(
        id: SessionID(UUID(uuidString: "00000000-0000-4000-8000-0000000000a1")!), userID: User.preview.id,
        kind: .session, name: "iPhone", createdAt: previewNow.addingTimeInterval(-86400), lastUsedAt: previewNow)
}

extension CheckInStatus {
    public static let preview = CheckInStatus(
        userID: User.preview.id, lastCheckInAt: previewNow.addingTimeInterval(-3600),
        deadline: previewNow.addingTimeInterval(23 * 3600), secondsLeft: 23 * 3600, state: .ok, pausedUntil: nil,
        openIncident: nil)
}

extension ContactCode {
    public static let preview = ContactCode(
        code: User.preview.contactCode, link: "lifesignal://contact/\(User.preview.contactCode)")
}

extension ContactPreview {
    public static let preview = ContactPreview(
        userID: Contact.preview.userID, firstName: "Bob", lastName: "Builder")
}

extension Contact {
    /// A responder.
    public static let preview = Contact(
        userID: UserID(UUID(uuidString: "00000000-0000-4000-8000-000000000002")!), firstName: "Bob",
        lastName: "Builder", phone: "+14155550102", emergencyNote: "", hasAvatar: false, roles: .responder,
        addedAt: previewNow.addingTimeInterval(-86400 * 7))

    /// A dependent, with their status.
    public static let previewDependent = Contact(
        userID: UserID(UUID(uuidString: "00000000-0000-4000-8000-000000000003")!), firstName: "Cleo",
        lastName: "Carter", phone: "+14155550103", emergencyNote: "Lives alone, spare key with the neighbour.",
        hasAvatar: false, roles: .dependent, addedAt: previewNow.addingTimeInterval(-86400 * 3),
        status: CheckInStatus(
            userID: UserID(UUID(uuidString: "00000000-0000-4000-8000-000000000003")!),
            lastCheckInAt: previewNow.addingTimeInterval(-20 * 3600), deadline: previewNow.addingTimeInterval(4 * 3600),
            secondsLeft: 4 * 3600, state: .ok, pausedUntil: nil, openIncident: nil))
}

extension Incident {
    public static let preview = Incident(
        id: IncidentID(UUID(uuidString: "00000000-0000-4000-8000-0000000000b1")!), userID: User.preview.id,
        kind: .manualAlert, openedAt: previewNow, dueAt: previewNow, notifyCount: 1)
}

extension LifeSignalModels.Notification {
    public static let preview = LifeSignalModels.Notification(
        id: NotificationID(UUID(uuidString: "00000000-0000-4000-8000-0000000000c1")!), recipientID: User.preview.id,
        type: .pingReceived, subjectUserID: Contact.preview.userID, title: "Bob pinged you",
        body: "Bob asks if you're OK. Answer to check in.", createdAt: previewNow)
}

extension Channel {
    public static let preview = Channel(
        id: ChannelID(UUID(uuidString: "00000000-0000-4000-8000-0000000000d1")!), userID: User.preview.id,
        kind: .sms, address: User.preview.phone, priority: 1, createdAt: previewNow)
}

extension ContactRequest {
    /// Bob asking the signed-in person for `roles` (his side).
    public static func preview(roles: ContactRoles) -> ContactRequest {
        ContactRequest(
            id: ContactRequestID(UUID(uuidString: "00000000-0000-7000-8000-0000000000c1")!),
            fromUserID: Contact.preview.userID, toUserID: User.preview.id, roles: roles, state: .pending,
            createdAt: Date(timeIntervalSince1970: 1_790_000_000), fromName: "Bob Builder", toName: "Ada Lovelace")
    }
}
