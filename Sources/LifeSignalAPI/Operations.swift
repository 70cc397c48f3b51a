/// Every operation of `/v1`, grouped by resource.
public enum Operations {
    // Accounts and sessions
    public static let requestSignInCode = Operation(.POST, "/v1/auth/code", "requestSignInCode", requiresAuth: false)
    public static let verifySignInCode = Operation(.POST, "/v1/auth/verify", "verifySignInCode", requiresAuth: false)
    public static let signOut = Operation(.POST, "/v1/auth/sign-out", "signOut")
    public static let listSessions = Operation(.GET, "/v1/sessions", "listSessions")
    public static let revokeSession = Operation(.DELETE, "/v1/sessions/{id}", "revokeSession")
    public static let createAPIToken = Operation(.POST, "/v1/tokens", "createApiToken")

    // Profile
    public static let getProfile = Operation(.GET, "/v1/me", "getProfile")
    public static let updateProfile = Operation(.PATCH, "/v1/me", "updateProfile")
    public static let deleteAccount = Operation(.DELETE, "/v1/me", "deleteAccount")
    public static let setAvatar = Operation(.PUT, "/v1/me/avatar", "setAvatar")
    public static let deleteAvatar = Operation(.DELETE, "/v1/me/avatar", "deleteAvatar")
    public static let getAvatar = Operation(.GET, "/v1/users/{id}/avatar", "getAvatar")
    public static let requestPhoneChange = Operation(.POST, "/v1/me/phone", "requestPhoneChange")
    public static let confirmPhoneChange = Operation(.POST, "/v1/me/phone/confirm", "confirmPhoneChange")
    public static let setPause = Operation(.PUT, "/v1/me/pause", "setPause")

    // Check-ins and status
    public static let getStatus = Operation(.GET, "/v1/me/status", "getStatus")
    public static let checkIn = Operation(.POST, "/v1/check-ins", "checkIn")
    public static let listCheckIns = Operation(.GET, "/v1/check-ins", "listCheckIns")

    // Contacts
    public static let getContactCode = Operation(.GET, "/v1/contact-code", "getContactCode")
    public static let rotateContactCode = Operation(.POST, "/v1/contact-code/rotate", "rotateContactCode")
    public static let lookUpContactCode = Operation(.GET, "/v1/contact-codes/{code}", "lookUpContactCode")
    public static let listContacts = Operation(.GET, "/v1/contacts", "listContacts")
    public static let addContact = Operation(.POST, "/v1/contacts", "addContact")
    public static let getContact = Operation(.GET, "/v1/contacts/{id}", "getContact")
    public static let updateContactRoles = Operation(.PATCH, "/v1/contacts/{id}", "updateContactRoles")
    public static let removeContact = Operation(.DELETE, "/v1/contacts/{id}", "removeContact")
    public static let getContactStatus = Operation(.GET, "/v1/contacts/{id}/status", "getContactStatus")
    public static let checkInOnBehalf = Operation(.POST, "/v1/contacts/{id}/check-in", "checkInOnBehalf")
    public static let listContactRequests = Operation(.GET, "/v1/contact-requests", "listContactRequests")
    public static let acceptContactRequest = Operation(.POST, "/v1/contact-requests/{id}/accept", "acceptContactRequest")
    public static let declineContactRequest = Operation(.POST, "/v1/contact-requests/{id}/decline", "declineContactRequest")

    // Pings
    public static let sendPing = Operation(.POST, "/v1/contacts/{id}/ping", "sendPing")
    public static let clearPing = Operation(.DELETE, "/v1/pings/{id}", "clearPing")
    public static let answerPing = Operation(.POST, "/v1/pings/{id}/answer", "answerPing")
    public static let answerPingWithHelp = Operation(.POST, "/v1/pings/{id}/help", "answerPingWithHelp")
    public static let answerAllPings = Operation(.POST, "/v1/pings/answer-all", "answerAllPings")

    // Alerts and incidents
    public static let raiseAlert = Operation(.POST, "/v1/alert", "raiseAlert")
    public static let clearAlert = Operation(.DELETE, "/v1/alert", "clearAlert")
    public static let getIncident = Operation(.GET, "/v1/incidents/{id}", "getIncident")
    public static let acknowledgeIncident = Operation(.POST, "/v1/incidents/{id}/acknowledge", "acknowledgeIncident")
    public static let resolveIncident = Operation(.POST, "/v1/incidents/{id}/resolve", "resolveIncident")

    // Notifications and channels
    public static let listNotifications = Operation(.GET, "/v1/notifications", "listNotifications")
    public static let markNotificationRead = Operation(.POST, "/v1/notifications/{id}/read", "markNotificationRead")
    public static let markAllNotificationsRead = Operation(.POST, "/v1/notifications/read-all", "markAllNotificationsRead")
    public static let deleteNotification = Operation(.DELETE, "/v1/notifications/{id}", "deleteNotification")
    public static let listDeliveries = Operation(.GET, "/v1/notifications/{id}/deliveries", "listDeliveries")
    public static let streamEvents = Operation(.GET, "/v1/events", "streamEvents")
    public static let listChannels = Operation(.GET, "/v1/channels", "listChannels")
    public static let addChannel = Operation(.POST, "/v1/channels", "addChannel")
    public static let removeChannel = Operation(.DELETE, "/v1/channels/{id}", "removeChannel")
    public static let verifyChannel = Operation(.POST, "/v1/channels/{id}/verify", "verifyChannel")

    // Timeline
    public static let getTimeline = Operation(.GET, "/v1/timeline", "getTimeline")
    public static let verifyTimeline = Operation(.GET, "/v1/timeline/verify", "verifyTimeline")
    public static let previewTimeline = Operation(.GET, "/v1/timeline/preview", "previewTimeline")

    // Drills
    public static let runDrill = Operation(.POST, "/v1/drills", "runDrill")
    public static let getDrill = Operation(.GET, "/v1/drills/{id}", "getDrill")

    public static let all: [Operation] = [
        requestSignInCode, verifySignInCode, signOut, listSessions, revokeSession, createAPIToken,
        getProfile, updateProfile, deleteAccount, setAvatar, deleteAvatar, getAvatar, requestPhoneChange,
        confirmPhoneChange, setPause, getStatus, checkIn, listCheckIns, getContactCode, rotateContactCode,
        lookUpContactCode, listContacts, addContact, getContact, updateContactRoles, removeContact,
        getContactStatus, checkInOnBehalf, listContactRequests, acceptContactRequest, declineContactRequest, sendPing, clearPing, answerPing, answerPingWithHelp, answerAllPings, raiseAlert,
        clearAlert, getIncident, acknowledgeIncident, resolveIncident, listNotifications,
        markNotificationRead, markAllNotificationsRead, deleteNotification, listDeliveries, streamEvents,
        listChannels, addChannel, removeChannel, verifyChannel, getTimeline, verifyTimeline, previewTimeline, runDrill, getDrill,
    ]
}
