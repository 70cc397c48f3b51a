import LifeSignalModels

/// Every operation of `/v1`, grouped by resource, each typed by what its path and query carry,
/// its body and its answer.
public enum Operations {
    // Accounts and sessions
    public static let requestSignInCode = Operation<NoInput, SignInCodeBody, CodeRequest>(
        .POST, "/v1/auth/code", "requestSignInCode", requiresAuth: false)
    public static let verifySignInCode = Operation<NoInput, VerifyCodeBody, TokenResponse>(
        .POST, "/v1/auth/verify", "verifySignInCode", requiresAuth: false, status: 201)
    public static let signOut = Operation<NoInput, NoBody, NoContent>(.POST, "/v1/auth/sign-out", "signOut")
    public static let listSessions = Operation<NoInput, NoBody, [Session]>(.GET, "/v1/sessions", "listSessions")
    public static let revokeSession = Operation<ByID<Session>, NoBody, NoContent>(.DELETE, "/v1/sessions/{id}", "revokeSession")
    public static let createAPIToken = Operation<NoInput, TokenNameBody, TokenResponse>(.POST, "/v1/tokens", "createApiToken", status: 201)

    // Profile
    public static let getProfile = Operation<NoInput, NoBody, User>(.GET, "/v1/me", "getProfile")
    public static let updateProfile = Operation<NoInput, ProfileChanges, User>(.PATCH, "/v1/me", "updateProfile")
    public static let deleteAccount = Operation<NoInput, NoBody, NoContent>(.DELETE, "/v1/me", "deleteAccount")
    public static let setAvatar = Operation<NoInput, ImageBytes, NoContent>(.PUT, "/v1/me/avatar", "setAvatar")
    public static let deleteAvatar = Operation<NoInput, NoBody, NoContent>(.DELETE, "/v1/me/avatar", "deleteAvatar")
    public static let getAvatar = Operation<ByID<User>, NoBody, ImageBytes>(.GET, "/v1/users/{id}/avatar", "getAvatar")
    public static let requestPhoneChange = Operation<NoInput, PhoneBody, CodeRequest>(.POST, "/v1/me/phone", "requestPhoneChange")
    public static let confirmPhoneChange = Operation<NoInput, VerifyCodeBody, User>(.POST, "/v1/me/phone/confirm", "confirmPhoneChange")
    public static let setPause = Operation<NoInput, PauseBody, CheckInStatus>(.PUT, "/v1/me/pause", "setPause")
    public static let listPauses = Operation<NoInput, NoBody, [Pause]>(.GET, "/v1/me/pauses", "listPauses")
    public static let addPause = Operation<NoInput, NewPauseBody, Pause>(.POST, "/v1/me/pauses", "addPause", status: 201)
    public static let removePause = Operation<ByID<Pause>, NoBody, CheckInStatus>(.DELETE, "/v1/me/pauses/{id}", "removePause")
    public static let getSealedDetails = Operation<NoInput, NoBody, SealedDetails>(.GET, "/v1/me/sealed-details", "getSealedDetails")
    public static let getLadder = Operation<NoInput, NoBody, Ladder>(.GET, "/v1/me/ladder", "getLadder")
    public static let setLadder = Operation<NoInput, LadderChange, Ladder>(.PUT, "/v1/me/ladder", "setLadder")
    public static let previewLadder = Operation<NoInput, NoBody, LadderPreview>(.GET, "/v1/me/ladder/preview", "previewLadder")
    /// Everything of hers as one JSON document, offered as a file (`Content-Disposition`).
    public static let exportData = Operation<NoInput, NoBody, DataExport>(.GET, "/v1/me/export", "exportData")
    /// Her check-ins as CSV, offered as a file.
    public static let exportCheckIns = Operation<NoInput, NoBody, CSVText>(.GET, "/v1/me/export/check-ins.csv", "exportCheckIns")

    // Check-ins and status
    public static let getStatus = Operation<NoInput, NoBody, CheckInStatus>(.GET, "/v1/me/status", "getStatus")
    public static let checkIn = Operation<NoInput, CheckInBody, CheckInResult>(.POST, "/v1/check-ins", "checkIn", status: 201)
    public static let addTime = Operation<NoInput, AddTimeBody, CheckInStatus>(.POST, "/v1/check-ins/later", "addTime")
    public static let listCheckIns = Operation<CheckInListQuery, NoBody, [CheckIn]>(.GET, "/v1/check-ins", "listCheckIns")

    // Contacts
    public static let getContactCode = Operation<NoInput, NoBody, ContactCode>(.GET, "/v1/contact-code", "getContactCode")
    public static let rotateContactCode = Operation<NoInput, NoBody, ContactCode>(.POST, "/v1/contact-code/rotate", "rotateContactCode")
    public static let lookUpContactCode = Operation<ByCode, NoBody, ContactPreview>(
        .GET, "/v1/contact-codes/{code}", "lookUpContactCode")
    public static let listContacts = Operation<ContactListQuery, NoBody, ContactLists>(.GET, "/v1/contacts", "listContacts")
    public static let addContact = Operation<NoInput, AddContactBody, ContactRequest>(.POST, "/v1/contacts", "addContact", status: 202)
    public static let getContact = Operation<ByID<User>, NoBody, Contact>(.GET, "/v1/contacts/{id}", "getContact")
    public static let updateContactRoles = Operation<ByID<User>, ContactChangeBody, Contact>(
        .PATCH, "/v1/contacts/{id}", "updateContactRoles")
    public static let removeContact = Operation<ByID<User>, NoBody, NoContent>(.DELETE, "/v1/contacts/{id}", "removeContact")
    public static let getContactStatus = Operation<ByID<User>, NoBody, CheckInStatus>(.GET, "/v1/contacts/{id}/status", "getContactStatus")
    /// A responder marks someone on a daily call away (hospital, holiday), or ends it.
    public static let setContactAway = Operation<ByID<User>, PauseBody, CheckInStatus>(.PUT, "/v1/contacts/{id}/away", "setContactAway")
    public static let checkInOnBehalf = Operation<ByID<User>, CheckInBody, CheckInResult>(
        .POST, "/v1/contacts/{id}/check-in", "checkInOnBehalf")
    public static let listContactRequests = Operation<NoInput, NoBody, ContactRequestLists>(
        .GET, "/v1/contact-requests", "listContactRequests")
    /// The body names the roles the person saw: a request that asks for others is refused.
    public static let acceptContactRequest = Operation<ByID<ContactRequest>, RolesBody, Contact>(
        .POST, "/v1/contact-requests/{id}/accept", "acceptContactRequest")
    public static let declineContactRequest = Operation<ByID<ContactRequest>, NoBody, ContactRequest>(
        .POST, "/v1/contact-requests/{id}/decline", "declineContactRequest")

    // Daily calls set up for someone else
    public static let createDailyCallSetup = Operation<NoInput, DailyCallSetupBody, DailyCallSetup>(
        .POST, "/v1/daily-call-setups", "createDailyCallSetup", status: 201)
    public static let listDailyCallSetups = Operation<NoInput, NoBody, [DailyCallSetup]>(
        .GET, "/v1/daily-call-setups", "listDailyCallSetups")
    public static let cancelDailyCallSetup = Operation<ByID<DailyCallSetup>, NoBody, DailyCallSetup>(
        .DELETE, "/v1/daily-call-setups/{id}", "cancelDailyCallSetup")

    // Pings
    public static let sendPing = Operation<ByID<User>, NoBody, Ping>(.POST, "/v1/contacts/{id}/ping", "sendPing", status: 201)
    public static let clearPing = Operation<ByID<Ping>, NoBody, NoContent>(.DELETE, "/v1/pings/{id}", "clearPing")
    public static let answerPing = Operation<ByID<Ping>, CheckInBody, CheckInResult>(.POST, "/v1/pings/{id}/answer", "answerPing")
    public static let answerPingWithHelp = Operation<ByID<Ping>, NoBody, Incident>(
        .POST, "/v1/pings/{id}/help", "answerPingWithHelp", status: 201)
    public static let answerAllPings = Operation<NoInput, CheckInBody, CheckInResult>(.POST, "/v1/pings/answer-all", "answerAllPings")

    // Alerts and incidents
    public static let raiseAlert = Operation<NoInput, NoBody, Incident>(.POST, "/v1/alert", "raiseAlert", status: 201)
    public static let clearAlert = Operation<NoInput, NoBody, CheckInStatus>(.DELETE, "/v1/alert", "clearAlert")
    public static let getIncident = Operation<ByID<Incident>, NoBody, IncidentReport>(.GET, "/v1/incidents/{id}", "getIncident")
    public static let acknowledgeIncident = Operation<ByID<Incident>, NoBody, Incident>(
        .POST, "/v1/incidents/{id}/acknowledge", "acknowledgeIncident")
    public static let resolveIncident = Operation<ByID<Incident>, NoBody, Incident>(.POST, "/v1/incidents/{id}/resolve", "resolveIncident")
    public static let openSealedDetails = Operation<ByID<Incident>, NoBody, SealedDetailsView>(
        .POST, "/v1/incidents/{id}/sealed-details", "openSealedDetails")

    // Notifications and channels
    public static let listNotifications = Operation<NotificationQuery, NoBody, NotificationPage>(
        .GET, "/v1/notifications", "listNotifications")
    public static let markNotificationRead = Operation<ByID<Notification>, NoBody, NoContent>(
        .POST, "/v1/notifications/{id}/read", "markNotificationRead")
    public static let markAllNotificationsRead = Operation<NoInput, NoBody, CountResponse>(
        .POST, "/v1/notifications/read-all", "markAllNotificationsRead")
    public static let deleteNotification = Operation<ByID<Notification>, NoBody, NoContent>(
        .DELETE, "/v1/notifications/{id}", "deleteNotification")
    public static let listDeliveries = Operation<ByID<Notification>, NoBody, [Delivery]>(
        .GET, "/v1/notifications/{id}/deliveries", "listDeliveries")
    public static let streamEvents = Operation<NoInput, NoBody, EventStream>(.GET, "/v1/events", "streamEvents")
    public static let listChannels = Operation<NoInput, NoBody, [Channel]>(.GET, "/v1/channels", "listChannels")
    public static let addChannel = Operation<NoInput, ChannelRegistration, Channel>(.POST, "/v1/channels", "addChannel", status: 201)
    public static let removeChannel = Operation<ByID<Channel>, NoBody, NoContent>(.DELETE, "/v1/channels/{id}", "removeChannel")
    public static let verifyChannel = Operation<ByID<Channel>, ChannelCodeBody, Channel>(.POST, "/v1/channels/{id}/verify", "verifyChannel")

    // Timeline
    public static let getTimeline = Operation<TimelineQuery, NoBody, [TimelineEntry]>(.GET, "/v1/timeline", "getTimeline")
    public static let verifyTimeline = Operation<NoInput, NoBody, TimelineVerification>(.GET, "/v1/timeline/verify", "verifyTimeline")
    public static let previewTimeline = Operation<NoInput, NoBody, [PreviewStep]>(.GET, "/v1/timeline/preview", "previewTimeline")

    // Device check-in links
    public static let createDeviceLink = Operation<NoInput, DeviceLinkBody, NewDeviceLink>(
        .POST, "/v1/me/devices", "createDeviceLink", status: 201)
    public static let listDeviceLinks = Operation<NoInput, NoBody, [DeviceLink]>(.GET, "/v1/me/devices", "listDeviceLinks")
    public static let revokeDeviceLink = Operation<ByID<DeviceLink>, NoBody, NoContent>(.DELETE, "/v1/me/devices/{id}", "revokeDeviceLink")

    // Plans
    public static let startPlan = Operation<NoInput, PlanBody, Plan>(.POST, "/v1/me/plans", "startPlan", status: 201)
    public static let listPlans = Operation<NoInput, NoBody, [Plan]>(.GET, "/v1/me/plans", "listPlans")
    public static let extendPlan = Operation<ByID<Plan>, PlanExtensionBody, Plan>(.POST, "/v1/me/plans/{id}/extend", "extendPlan")
    public static let finishPlan = Operation<ByID<Plan>, PlanDoneBody, Plan>(.POST, "/v1/me/plans/{id}/done", "finishPlan")
    public static let cancelPlan = Operation<ByID<Plan>, NoBody, NoContent>(.DELETE, "/v1/me/plans/{id}", "cancelPlan")
    public static let listContactPlans = Operation<ByID<User>, NoBody, [PlanHeadline]>(.GET, "/v1/contacts/{id}/plans", "listContactPlans")

    // Location, shared only during an alert
    public static let recordLocation = Operation<NoInput, LocationBody, LocationView>(
        .POST, "/v1/me/location", "recordLocation", status: 201)
    public static let getLocation = Operation<NoInput, NoBody, LocationView>(.GET, "/v1/me/location", "getLocation")
    /// A responder, while the alert is open: her last location (each responder's first look recorded).
    public static let getIncidentLocation = Operation<ByID<Incident>, NoBody, LocationView>(
        .GET, "/v1/incidents/{id}/location", "getIncidentLocation")

    // Drills
    public static let runDrill = Operation<NoInput, NoBody, DrillReport>(.POST, "/v1/drills", "runDrill", status: 201)
    public static let getDrill = Operation<ByID<DrillReport>, NoBody, DrillReport>(.GET, "/v1/drills/{id}", "getDrill")

    public static let all: [any OperationDescription] = [
        requestSignInCode, verifySignInCode, signOut, listSessions, revokeSession, createAPIToken,
        getProfile, updateProfile, deleteAccount, setAvatar, deleteAvatar, getAvatar, requestPhoneChange,
        confirmPhoneChange, setPause, listPauses, addPause, removePause, addTime, getSealedDetails, createDeviceLink, listDeviceLinks,
        revokeDeviceLink, startPlan,
        listPlans, extendPlan, finishPlan, cancelPlan, listContactPlans, recordLocation, getLocation, getIncidentLocation, getLadder,
        setLadder, previewLadder, exportData, exportCheckIns, getStatus, checkIn, listCheckIns,
        getContactCode, rotateContactCode,
        lookUpContactCode, listContacts, addContact, getContact, updateContactRoles, removeContact,
        getContactStatus, checkInOnBehalf, listContactRequests, acceptContactRequest, declineContactRequest,
        createDailyCallSetup, listDailyCallSetups, cancelDailyCallSetup, setContactAway, sendPing, clearPing,
        answerPing, answerPingWithHelp, answerAllPings, raiseAlert,
        clearAlert, getIncident, acknowledgeIncident, resolveIncident, openSealedDetails, listNotifications,
        markNotificationRead, markAllNotificationsRead, deleteNotification, listDeliveries, streamEvents,
        listChannels, addChannel, removeChannel, verifyChannel, getTimeline, verifyTimeline, previewTimeline, runDrill, getDrill,
    ]
}
