import Foundation
import LifeSignalAPI
import LifeSignalModels
import Testing

/// Swift values encoded the way the server encodes them (`APICoding.encoder`) must match the
/// schemas the document gives them. Optionals that are nil are omitted by the encoder, so
/// they must not be `required` in the schema.
@Suite("OpenAPI schemas match the Swift encoding")
struct OpenAPISchemaTests {
    let validator: MiniSchemaValidator

    init() throws {
        validator = MiniSchemaValidator(document: try Doc.load())
    }

    // Fixed values, so failures are readable.
    static let date = Date(timeIntervalSince1970: 1_795_685_400.123)  // 2026-11-26T09:30:00.123Z
    static let userID = UserID(UUID(uuidString: "3F2B8C1E-9A4D-4E6F-8B7A-1C2D3E4F5A6B")!)
    static let otherID = UserID(UUID(uuidString: "0A1B2C3D-4E5F-4061-8293-A4B5C6D7E8F9")!)
    static func id<Tag>(_ n: Int) -> Identifier<Tag> {
        Identifier(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))!)
    }

    func json(_ value: some Encodable) throws -> Any {
        try JSONSerialization.jsonObject(with: APICoding.encoder.encode(value), options: [.fragmentsAllowed])
    }

    func expectValid(_ value: some Encodable, _ schema: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let problems = validator.validate(try json(value), against: schema)
        #expect(
            problems.isEmpty, "\(type(of: value)) does not match \(schema):\n\(problems.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
    }

    func expectInvalid(_ instance: Any, _ schema: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            !validator.validate(instance, against: schema).isEmpty, "expected \(instance) to be rejected by \(schema)",
            sourceLocation: sourceLocation)
    }

    // MARK: - Error envelope and request bodies

    @Test func errorEnvelope() throws {
        try expectValid(APIErrorEnvelope(code: .notFound, message: "There is nothing at /v1/nope."), "Error")
        try expectValid(APIErrorEnvelope(code: .invalidPhone, message: "Enter the phone number…", field: "phone"), "Error")
        let encoded = try #require(try json(APIErrorEnvelope(code: .conflict, message: "y")) as? [String: Any])
        #expect((encoded["error"] as? [String: Any])?.keys.sorted() == ["code", "message"], "a nil field is omitted")
    }

    @Test func checkInBody() throws {
        try expectValid(CheckInBody(id: Self.id(1)), "CheckInBody")
        try expectValid(CheckInBody(id: Self.id(2), clientAt: Self.date, source: .web), "CheckInBody")
        for source in CheckIn.Source.allCases { try expectValid(CheckInBody(id: Self.id(3), source: source), "CheckInBody") }
        let encoded = try #require(try json(CheckInBody(id: Self.id(1))) as? [String: Any])
        #expect(encoded.keys.sorted() == ["id"])
    }

    @Test func pauseBody() throws {
        let resume = try json(PauseBody(until: nil))
        #expect((resume as? [String: Any])?.isEmpty == true, "PauseBody(until: nil) encodes as {}")
        try expectValid(PauseBody(until: nil), "PauseBody")
        try expectValid(PauseBody(until: Self.date), "PauseBody")
        // The decoder also accepts an explicit null, and the schema says so.
        #expect(validator.validate(["until": NSNull()], against: "PauseBody").isEmpty)
        #expect(try APICoding.decoder.decode(PauseBody.self, from: Data(#"{"until":null}"#.utf8)).until == nil)
    }

    @Test func otherRequestBodies() throws {
        try expectValid(PhoneBody(phone: "+447700900123"), "PhoneBody")
        try expectValid(VerifyCodeBody(phone: "+447700900123", code: "123456"), "VerifyCodeBody")
        try expectValid(VerifyCodeBody(phone: "+447700900123", code: "123456", deviceName: "CLI"), "VerifyCodeBody")
        try expectValid(TokenNameBody(name: "Home Assistant"), "TokenNameBody")
        try expectValid(AddContactBody(code: String(repeating: "ab", count: 16), roles: [.responder]), "AddContactBody")
        try expectValid(RolesBody(roles: [.responder, .dependent]), "RolesBody")
        try expectValid(CountResponse(count: 3), "CountResponse")
        try expectValid(ProfileChanges(), "ProfileChanges")
        try expectValid(
            ProfileChanges(
                firstName: "Ada", lastName: "Lovelace", emergencyNote: "Cat needs feeding",
                schedule: .daily(hour: 9, minute: 30, timeZone: "Europe/London"), reminders: .both, graceMinutes: 10),
            "ProfileChanges")
        try expectValid(ChannelRegistration(kind: .email, address: "ada@example.com"), "ChannelRegistration")
        try expectValid(ChannelRegistration(kind: .ntfy, address: "ada", categories: [.alerts, .pings]), "ChannelRegistration")
    }

    // MARK: - Custom encodings

    @Test func scheduleIsADiscriminatedUnion() throws {
        try expectValid(CheckInSchedule.interval(seconds: 86400), "CheckInSchedule")
        try expectValid(CheckInSchedule.daily(hour: 7, minute: 5, timeZone: "America/New_York"), "CheckInSchedule")
        let daily = try #require(try json(CheckInSchedule.daily(hour: 7, minute: 5, timeZone: "UTC")) as? [String: Any])
        #expect(daily["time"] as? String == "07:05")
        expectInvalid(["kind": "weekly", "seconds": 3600], "CheckInSchedule")
        expectInvalid(["kind": "daily", "time": "7:05", "timeZone": "UTC"], "CheckInSchedule")
        expectInvalid(["kind": "interval"], "CheckInSchedule")
    }

    @Test func rolesAreTwoBooleans() throws {
        for roles: ContactRoles in [[], [.responder], [.dependent], [.responder, .dependent]] {
            try expectValid(roles, "ContactRoles")
        }
        expectInvalid(["responder": 1, "dependent": 0], "ContactRoles")
        expectInvalid(["responder": true], "ContactRoles")
    }

    @Test func enumsListEveryCase() throws {
        func values(_ schema: String) -> Set<String> {
            let schemas = (validator.document["components"] as? [String: Any])?["schemas"] as? [String: Any]
            return Set(((schemas?[schema] as? [String: Any])?["enum"] as? [String]) ?? [])
        }
        #expect(values("ReminderChoice") == Set(ReminderChoice.allCases.map(\.rawValue)))
        #expect(values("CheckInState") == Set(CheckInStatus.State.allCases.map(\.rawValue)))
        #expect(values("CheckInSource") == Set(CheckIn.Source.allCases.map(\.rawValue)))
        #expect(values("IncidentKind") == Set(Incident.Kind.allCases.map(\.rawValue)))
        #expect(values("IncidentResolution") == Set(Incident.Resolution.allCases.map(\.rawValue)))
        #expect(values("NotificationKind") == Set(Notification.Kind.allCases.map(\.rawValue)))
        #expect(values("NotificationCategory") == Set(Notification.Category.allCases.map(\.rawValue)))
        #expect(values("ChannelKind") == Set(ChannelKind.allCases.map(\.rawValue)))
        #expect(values("DeliveryStatus") == Set(Delivery.Status.allCases.map(\.rawValue)))
        #expect(values("SessionKind") == Set(Session.Kind.allCases.map(\.rawValue)))
    }

    // MARK: - Domain values, minimal (every optional nil) and full

    static let ping = Ping(id: id(20), fromUserID: otherID, toUserID: userID, sentAt: date)
    static let minimalStatus = CheckInStatus(
        userID: userID, lastCheckInAt: nil, deadline: date, secondsLeft: -5, state: .nonResponsive, pausedUntil: nil, openIncident: nil)
    static let fullStatus = CheckInStatus(
        userID: userID, lastCheckInAt: date, deadline: date, secondsLeft: 3600, state: .alert, pausedUntil: date,
        openIncident: IncidentSummary(
            id: id(30), kind: .manualAlert, openedAt: date, acknowledgedBy: otherID, acknowledgedByName: "Bob",
            acknowledgedAt: date,
            responders: [
                ResponderProgress(userID: otherID, name: "Bob", deliveries: [DeliveryProof(delivery)], acknowledgedAt: date),
                ResponderProgress(userID: id(70), name: "Cy", deliveries: []),
            ]),
        periodSeconds: 86400)
    static let user = User(id: userID, phone: "+447700900123", createdAt: date, contactCode: String(repeating: "0f", count: 16))
    static let session = Session(id: id(40), userID: userID, kind: .apiToken, name: "CLI", createdAt: date, lastUsedAt: date)
    static let incident = Incident(id: id(30), userID: userID, kind: .missedCheckIn, openedAt: date, dueAt: date)
    static let delivery = Delivery(
        id: id(50), notificationID: id(60), recipientID: otherID, channel: .sms, address: "+15550100", status: .failed,
        createdAt: date, updatedAt: date)

    @Test func usersAndSessions() throws {
        try expectValid(Self.user, "User")
        var full = Self.user
        full.firstName = "Ada"
        full.lastCheckInAt = Self.date
        full.pauses = [Pause.startingNow(Self.date, until: Self.date.addingTimeInterval(3600), setBy: Self.userID, setByName: "Ada")]
        full.schedule = .daily(hour: 21, minute: 0, timeZone: "Europe/Paris")
        try expectValid(full, "User")
        try expectValid(Self.session, "Session")
        try expectValid(TokenResponse(token: "ls_abc", session: Self.session, user: Self.user, isNewUser: true), "TokenResponse")
        try expectValid(CodeRequest(phone: "+447700900123", expiresAt: Self.date, resendAfter: Self.date), "CodeRequest")
    }

    @Test func statusAndCheckIns() throws {
        try expectValid(Self.minimalStatus, "CheckInStatus")
        try expectValid(Self.fullStatus, "CheckInStatus")
        let checkIn = CheckIn(id: Self.id(10), userID: Self.userID, at: Self.date, source: .app)
        try expectValid(checkIn, "CheckIn")
        try expectValid(
            CheckIn(id: Self.id(11), userID: Self.userID, at: Self.date, clientAt: Self.date, source: .responder, recordedBy: Self.otherID),
            "CheckIn")
        try expectValid(CheckInResult(checkIn: checkIn, status: Self.minimalStatus, duplicate: false), "CheckInResult")
    }

    @Test func contacts() throws {
        let minimal = Contact(
            userID: Self.otherID, firstName: "Bob", lastName: "Smith", phone: "+15550100", emergencyNote: "",
            hasAvatar: false, roles: [.responder], addedAt: Self.date)
        var full = minimal
        full.roles = [.responder, .dependent]
        full.status = Self.fullStatus
        full.outgoingPing = Self.ping
        full.incomingPing = Ping(
            id: Self.id(21), fromUserID: Self.userID, toUserID: Self.otherID, sentAt: Self.date, answeredAt: Self.date, clearedAt: Self.date
        )
        try expectValid(minimal, "Contact")
        try expectValid(full, "Contact")
        try expectValid(ContactLists(responders: [minimal], dependents: [full]), "ContactLists")
        try expectValid(ContactPreview(userID: Self.otherID, firstName: "Bob", lastName: "Smith"), "ContactPreview")
        try expectValid(
            ContactPreview(userID: Self.otherID, firstName: "Bob", lastName: "Smith", hasAvatar: true, emergencyNote: "Allergic to nuts"),
            "ContactPreview")
        let request = ContactRequest(
            id: Self.id(40), fromUserID: Self.userID, toUserID: Self.otherID, roles: .responder, state: .pending, createdAt: Self.date,
            fromName: "Ada Lovelace", toName: "Bob Smith")
        var answered = request
        answered.state = .declined
        answered.decidedAt = Self.date
        try expectValid(request, "ContactRequest")
        try expectValid(ContactRequestLists(incoming: [answered], outgoing: [request]), "ContactRequestLists")
        var waiting = minimal
        waiting.pendingRequest = request
        try expectValid(waiting, "Contact")
        // Every role taken off, the new ones waiting for a yes: only a name is shown.
        let swapped = Contact(
            userID: Self.otherID, firstName: "Bob", lastName: "Smith", phone: "", emergencyNote: "", hasAvatar: false, roles: [],
            addedAt: Self.date, pendingRequest: request)
        try expectValid(swapped, "Contact")
        let code = String(repeating: "9f", count: 16)
        try expectValid(ContactCode(code: code, link: "lifesignal://contact/\(code)"), "ContactCode")
        try expectValid(Self.ping, "Ping")
    }

    @Test func incidents() throws {
        try expectValid(Self.incident, "Incident")
        let resolved = Incident(
            id: Self.id(31), userID: Self.userID, kind: .manualAlert, openedAt: Self.date, dueAt: Self.date, late: true,
            acknowledgedBy: Self.otherID, acknowledgedAt: Self.date, claimExpiresAt: Self.date, notifyCount: 3,
            nextNotifyAt: Self.date, resolvedAt: Self.date, resolvedBy: Self.otherID, resolution: .resolvedByResponder)
        try expectValid(resolved, "Incident")
        var reached = Self.delivery
        reached.reason = "Unreachable"
        reached.providerID = "SM123"
        let report = IncidentReport(
            incident: resolved,
            user: ContactPreview(userID: Self.userID, firstName: "Ada", lastName: "Lovelace", emergencyNote: ""),
            acknowledgedByName: "Bob",
            recipients: [
                .init(userID: Self.otherID, name: "Bob Smith", deliveries: [DeliveryProof(Self.delivery), DeliveryProof(reached)])
            ])
        try expectValid(report, "IncidentReport")
        // Proof shown to others never carries an address or a provider id: the schema forbids them.
        expectInvalid(
            [
                "id": Self.userID.description, "notificationID": Self.otherID.description, "recipientID": Self.otherID.description,
                "channel": "sms", "status": "sent", "attempts": 1, "createdAt": "2026-11-21T09:30:00.000Z",
                "updatedAt": "2026-11-21T09:30:00.000Z", "address": "+447700900123",
            ], "DeliveryProof")
        try expectValid(
            IncidentReport(incident: Self.incident, user: report.user, acknowledgedByName: nil, recipients: []), "IncidentReport")
    }

    @Test func notificationsAndChannels() throws {
        let minimal = Notification(
            id: Self.id(60), recipientID: Self.userID, type: .reminder, title: "Check in", body: "30 minutes left", createdAt: Self.date)
        let full = Notification(
            id: Self.id(61), recipientID: Self.userID, type: .incidentOpened, subjectUserID: Self.otherID, incidentID: Self.id(30),
            title: "Bob missed a check-in", body: "…", createdAt: Self.date, readAt: Self.date)
        try expectValid(minimal, "Notification")
        try expectValid(full, "Notification")
        try expectValid(NotificationPage(items: [minimal, full], unreadCount: 1, nextBefore: Self.date), "NotificationPage")
        try expectValid(NotificationPage(items: [], unreadCount: 0, nextBefore: nil), "NotificationPage")
        try expectValid(Self.delivery, "Delivery")
        try expectValid(
            Channel(
                id: Self.id(70), userID: Self.userID, kind: .webhook, address: "https://example.com/hook", priority: 0, createdAt: Self.date
            ), "Channel")
    }

    @Test func timeline() throws {
        let entry = TimelineEntry(
            sequence: 1, userID: Self.userID, at: Self.date, kind: "check_in", summary: "Checked in (app)", detail: "{}",
            previousHash: TimelineEntry.genesisHash, hash: String(repeating: "ab", count: 32))
        try expectValid(entry, "TimelineEntry")
        try expectValid(TimelineVerification(valid: true, entries: 1, firstBadSequence: nil, headHash: entry.hash), "TimelineVerification")
        try expectValid(TimelineVerification(valid: false, entries: 2, firstBadSequence: 2, headHash: entry.hash), "TimelineVerification")
    }

    // MARK: - The live event stream

    /// An event as an SSE parser gives it: the `event:` name and the `data:` text, the JSON
    /// the stream controller writes with `APICoding.encoder`.
    func event(_ name: String, _ data: some Encodable) throws -> [String: Any] {
        ["event": name, "data": String(decoding: try APICoding.encoder.encode(data), as: UTF8.self)]
    }

    @Test func liveEventsEachHaveASchema() throws {
        let streamed = try #require(
            Doc.resolve("#/paths/~1v1~1events/get/responses/200/content/text~1event-stream/schema", in: validator.document)
                as? [String: Any])
        #expect(streamed["$ref"] as? String == "#/components/schemas/LiveEvent", "the stream is described one event at a time")

        let notification = Notification(
            id: Self.id(60), recipientID: Self.userID, type: .reminder, title: "30 minutes left", body: "Check in by 09:30",
            createdAt: Self.date)
        let events: [[String: Any]] = [
            try event("status", Self.minimalStatus), try event("status", Self.fullStatus), try event("notification", notification),
            ["event": "contacts", "data": "{}"],
        ]
        for event in events {
            let problems = validator.validate(event, against: "LiveEvent")
            #expect(problems.isEmpty, "\(event["event"] ?? "?") does not match LiveEvent:\n\(problems.joined(separator: "\n"))")
        }
        expectInvalid(["event": "status", "data": "{}"], "LiveEvent")  // the data is checked too
        expectInvalid(try event("notification", Self.minimalStatus), "LiveEvent")
        expectInvalid(["event": "contacts", "data": #"{"reload":true}"#], "LiveEvent")
        expectInvalid(["event": "keep-alive", "data": ""], "LiveEvent")  // a comment, never an event
        expectInvalid(["event": "status"], "LiveEvent")
    }

    // MARK: - The checker itself rejects what it should

    @Test func validatorRejectsWrongShapes() {
        expectInvalid(["error": ["code": "x"]], "Error")  // message missing
        expectInvalid(["error": ["code": 1, "message": "m"]], "Error")  // wrong type
        expectInvalid(["id": "3F2B8C1E-9A4D-4E6F-8B7A-1C2D3E4F5A6B"], "CheckInBody")  // upper-case UUID
        expectInvalid(["id": Self.userID.description, "clientAt": "2026-11-21T09:30:00Z"], "CheckInBody")  // no milliseconds
        expectInvalid(["id": Self.userID.description, "source": "telepathy"], "CheckInBody")  // not in the enum
        expectInvalid(["count": true], "CountResponse")  // a boolean is not an integer
        expectInvalid(["responders": [["userID": Self.otherID.description]], "dependents": []], "ContactLists")  // items checked
    }
}
