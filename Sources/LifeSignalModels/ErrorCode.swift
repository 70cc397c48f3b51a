/// Every stable error code of `/v1`: the `code` of the error envelope
/// (`{ "error": { "code", "message", "field" } }`). The core throws them, the server writes
/// them, the OpenAPI document lists them (`ErrorBody.code`'s `enum`) and the app switches on
/// them; a test holds the document and this list equal. Messages are for people and may change;
/// these raw values never do.
public enum ErrorCode: String, CaseIterable, Codable, Hashable, Sendable {
    // MARK: Who may do what (401, 403)

    /// The token is missing, unknown, expired or revoked: sign in again.
    case unauthorized = "unauthorized"
    /// The token may not do this (a check-in-only API token).
    case tokenScope = "token_scope"
    /// This needs a fresh sign-in (changing the phone number).
    case signInAgain = "sign_in_again"
    /// Only the person's responders may do this.
    case notAResponder = "not_a_responder"
    /// Only people the caller watches over can be pinged.
    case notADependent = "not_a_dependent"
    /// Say "I'm on it" before resolving someone else's alert.
    case acknowledgeFirst = "acknowledge_first"
    /// A responder may check someone in only when they are overdue.
    case notOverdue = "not_overdue"
    /// A provider callback is not signed for this server.
    case badSignature = "bad_signature"

    // MARK: Not there (404, 405)

    /// Nothing lives at this address.
    case notFound = "not_found"
    /// The person does not exist (or is not visible to the caller).
    case userNotFound = "user_not_found"
    /// The session does not exist.
    case sessionNotFound = "session_not_found"
    /// The person is not one of the caller's contacts.
    case contactNotFound = "contact_not_found"
    /// No one has that contact code.
    case codeNotFound = "code_not_found"
    /// The contact request does not exist.
    case requestNotFound = "request_not_found"
    /// The ping does not exist.
    case pingNotFound = "ping_not_found"
    /// The alert does not exist.
    case incidentNotFound = "incident_not_found"
    /// The notification does not exist.
    case notificationNotFound = "notification_not_found"
    /// The channel does not exist.
    case channelNotFound = "channel_not_found"
    /// The drill does not exist.
    case drillNotFound = "drill_not_found"
    /// The daily-call request does not exist (or is not the caller's).
    case dailyCallSetupNotFound = "daily_call_setup_not_found"
    /// The device check-in link does not exist (or is not the caller's).
    case deviceLinkNotFound = "device_link_not_found"
    /// No plan of the caller's has this id.
    case planNotFound = "plan_not_found"
    /// No pause of the caller's that has not ended has this id.
    case pauseNotFound = "pause_not_found"
    /// The person has no picture.
    case noAvatar = "no_avatar"
    /// The address takes other methods (see `Allow`).
    case methodNotAllowed = "method_not_allowed"

    // MARK: Conflicts with the current state (409)

    /// The change conflicts with something that already exists.
    case conflict = "conflict"
    /// The caller's alert is already active.
    case alertActive = "alert_active"
    /// The caller has no active alert.
    case noActiveAlert = "no_active_alert"
    /// The person is already a contact.
    case alreadyLinked = "already_linked"
    /// The contact request was already accepted or declined.
    case requestAnswered = "request_answered"
    /// The contact request asks for other roles than the ones accepted.
    case requestChanged = "request_changed"
    /// A ping to this person is still waiting.
    case alreadyPinged = "already_pinged"
    /// The ping was already answered or cleared.
    case pingNotPending = "ping_not_pending"
    /// No ping is waiting for an answer.
    case noPendingPings = "no_pending_pings"
    /// The alert is already resolved.
    case incidentResolved = "incident_resolved"
    /// The channel is already registered.
    case channelExists = "channel_exists"
    /// The caller has the most channels allowed.
    case tooManyChannels = "too_many_channels"
    /// The caller has the most device check-in links allowed (10).
    case tooManyDeviceLinks = "too_many_device_links"
    /// The caller has the most running plans allowed (3).
    case tooManyPlans = "too_many_plans"
    /// The plan already ended: it can no longer be extended or ended.
    case planEnded = "plan_ended"
    /// The caller holds the most pauses allowed that have not ended (20).
    case tooManyPauses = "too_many_pauses"
    /// The pause overlaps another of the caller's.
    case pauseOverlaps = "pause_overlaps"
    /// An alert about a missed check-in is open: say whether pausing ends it (`openIncident`).
    case incidentOpen = "incident_open"
    /// Location sharing is off: nothing was stored (turn it on first).
    case locationOff = "location_off"
    /// Another account uses that number.
    case phoneTaken = "phone_taken"
    /// A drill needs at least one responder.
    case noResponders = "no_responders"
    /// The ladder was saved by someone else since this edit began: read it again.
    case ladderChanged = "ladder_changed"

    // MARK: Input that is not valid (400, 413)

    /// The request could not be understood.
    case badRequest = "bad_request"
    /// The body is missing, not JSON, or not the operation's schema.
    case invalidBody = "invalid_body"
    /// An input not listed here is not valid (`field` names it).
    case invalidInput = "invalid_input"
    /// `accuracyMeters` is not valid (more than 0, at most 100 km).
    case invalidAccuracyMeters = "invalid_accuracyMeters"
    /// `address` is not valid.
    case invalidAddress = "invalid_address"
    /// The `after` query parameter is not valid.
    case invalidAfter = "invalid_after"
    /// The picture is not a PNG or JPEG of at most 1 MB.
    case invalidAvatar = "invalid_avatar"
    /// The `before` query parameter is not valid.
    case invalidBefore = "invalid_before"
    /// `capturedAt` is not valid (not more than 5 minutes ahead, nor more than a day old).
    case invalidCapturedAt = "invalid_capturedAt"
    /// The `category` query parameter is not valid.
    case invalidCategory = "invalid_category"
    /// The code is not valid.
    case invalidCode = "invalid_code"
    /// A form's confirmation box was not ticked (web app).
    case invalidConfirm = "invalid_confirm"
    /// `deviceName` is not valid.
    case invalidDeviceName = "invalid_deviceName"
    /// `emergencyNote` is not valid.
    case invalidEmergencyNote = "invalid_emergencyNote"
    /// `sealedDetails` is not valid.
    case invalidSealedDetails = "invalid_sealedDetails"
    /// `expiresAt` is not valid.
    case invalidExpiresAt = "invalid_expiresAt"
    /// `firstName` is not valid.
    case invalidFirstName = "invalid_firstName"
    /// `graceMinutes` is not valid.
    case invalidGraceMinutes = "invalid_graceMinutes"
    /// A path id is not valid.
    case invalidId = "invalid_id"
    /// `kind` is not valid.
    case invalidKind = "invalid_kind"
    /// `language` is not valid (a BCP 47 tag: `de`, `de-AT`).
    case invalidLanguage = "invalid_language"
    /// `lastName` is not valid.
    case invalidLastName = "invalid_lastName"
    /// `latitude` is not valid (−90 to 90 degrees).
    case invalidLatitude = "invalid_latitude"
    /// The `limit` query parameter is not valid.
    case invalidLimit = "invalid_limit"
    /// `longitude` is not valid (−180 to 180 degrees).
    case invalidLongitude = "invalid_longitude"
    /// `name` is not valid.
    case invalidName = "invalid_name"
    /// `phone` is not valid.
    case invalidPhone = "invalid_phone"
    /// `quietHours` is not valid (start and end must differ).
    case invalidQuietHours = "invalid_quietHours"
    /// `reminders` is not valid.
    case invalidReminders = "invalid_reminders"
    /// `roles` is not valid (at least one role).
    case invalidRoles = "invalid_roles"
    /// `schedule` is not valid.
    case invalidSchedule = "invalid_schedule"
    /// `seconds` is not valid.
    case invalidSeconds = "invalid_seconds"
    /// A ladder's steps are not valid: the message names each step's problem.
    case invalidSteps = "invalid_steps"
    /// The `sort` query parameter is not valid.
    case invalidSort = "invalid_sort"
    /// `timeZone` is not valid.
    case invalidTimeZone = "invalid_timeZone"
    /// The `unread` query parameter is not valid.
    case invalidUnread = "invalid_unread"
    /// `until` is not valid.
    case invalidUntil = "invalid_until"
    /// `via` is not valid.
    case invalidVia = "invalid_via"
    /// The `watched` query parameter is not valid.
    case invalidWatched = "invalid_watched"
    /// A provider callback lacks a required field.
    case invalidCallback = "invalid_callback"
    /// Codes are not sent to that number (a premium-rate range, or a country not served).
    case phoneNotServed = "phone_not_served"
    /// The code is not the one sent.
    case wrongCode = "wrong_code"
    /// The contact code is the caller's own.
    case ownCode = "own_code"
    /// The code has expired, or none was asked for.
    case codeExpired = "code_expired"
    /// The code was tried too often; ask for a new one.
    case tooManyAttempts = "too_many_attempts"
    /// The channel's code was tried too often; add the channel again.
    case channelCodeUsedUp = "channel_code_used_up"
    /// The body is larger than the operation allows.
    case bodyTooLarge = "body_too_large"

    // MARK: Too often (429, with `Retry-After`)

    /// A code was sent moments ago (see `Retry-After`).
    case codeRecentlySent = "code_recently_sent"
    /// Too many codes asked for this number.
    case tooManyCodeRequests = "too_many_code_requests"
    /// Too many contact requests.
    case tooManyContactRequests = "too_many_contact_requests"
    /// The person declined a request from the caller recently.
    case requestDeclinedRecently = "request_declined_recently"
    /// Too many role changes.
    case tooManyRoleChanges = "too_many_role_changes"
    /// Too many pings.
    case tooManyPings = "too_many_pings"
    /// Too many cleared pings.
    case tooManyPingClears = "too_many_ping_clears"
    /// Too many drills.
    case tooManyDrills = "too_many_drills"
    /// Too many phone number changes.
    case tooManyPhoneChanges = "too_many_phone_changes"
    /// Too many channel codes.
    case tooManyChannelCodes = "too_many_channel_codes"
    /// Too many "I'm on it" from the caller.
    case tooManyAcknowledgements = "too_many_acknowledgements"
    /// Too many check-ins on someone's behalf.
    case tooManyBehalfCheckIns = "too_many_behalf_check_ins"
    /// Too many daily calls set up for others.
    case tooManyDailyCallSetups = "too_many_daily_call_setups"
    /// Sealed details opened too often.
    case tooManySealedViews = "too_many_sealed_views"
    /// Too many exports of one's own data.
    case tooManyExports = "too_many_exports"
    /// Too many plans started in a day.
    case tooManyPlanStarts = "too_many_plan_starts"
    /// Too many pauses set, planned or ended in a day.
    case tooManyPauseChanges = "too_many_pause_changes"
    /// The caller holds the most open event streams allowed.
    case tooManyStreams = "too_many_streams"

    // MARK: The server (500, 503)

    /// The database cannot be reached right now.
    case unavailable = "unavailable"
    /// The server's storage is full: nothing new can be saved until space is freed.
    case storageFull = "storage_full"
    /// The code could not be texted or called.
    case codeNotSent = "code_not_sent"
    /// Something failed on the server's side.
    case internalError = "internal_error"
}

extension ErrorCode {
    /// The code for an input that is not valid: `invalid_<field>` for the fields above, else
    /// `invalid_input` (the envelope's `field` still names the input).
    public init(invalidField field: String) {
        self = ErrorCode(rawValue: "invalid_" + field) ?? .invalidInput
    }
}
