import Foundation

/// A person with an account, as they see themselves.
public struct User: Identifiable, Codable, Hashable, Sendable {
    public var id: UserID
    /// Verified phone number in E.164 form (`+14155550123`).
    public var phone: String
    public var firstName: String
    public var lastName: String
    /// Shown to contacts; at most 500 characters.
    public var emergencyNote: String
    public var schedule: CheckInSchedule
    public var reminders: ReminderChoice
    /// Minutes after the deadline before responders are alerted (0–60).
    public var graceMinutes: Int
    public var lastCheckInAt: Date?
    /// Her pauses that have not ended, and ended ones her rhythm still starts from (the
    /// period after a pause starts at its end), earliest first; never overlapping.
    public var pauses: [Pause]
    public var createdAt: Date
    /// The 128-bit contact code, as 32 lowercase hex characters.
    public var contactCode: String
    public var hasAvatar: Bool
    /// False until the person has given their names.
    public var isOnboarded: Bool
    /// Their time zone (IANA, `Europe/Paris`): every time they read is written in it. Taken
    /// from the browser or device, changeable in settings; `UTC` until then.
    public var timeZone: String
    /// "I only watch over others": no rhythm, no reminders, never overdue. A check-in is still
    /// recorded; turning this off starts the rhythm from now.
    public var watchOnly: Bool
    /// The language they read and hear (BCP 47: `de`, `de-AT`): every message to them is in
    /// it. nil until they or their browser or device say; they read English meanwhile.
    public var language: String?
    /// Whether a call to LifeSignal's number from her phone asks for her PIN first (the PIN
    /// itself is never shown, only stored hashed).
    public var hasCallInPin: Bool
    /// "I'm OK, give me 2 more hours": one deadline moved later, once. Holds only while that
    /// deadline (`from`) is the one her rhythm gives; her next check-in leaves it behind.
    public var addedTime: AddedTime?
    /// Her quiet hours, in her own zone (`timeZone`); nil when off (see ``QuietHours``).
    public var quietHours: QuietHours?
    /// "Share my location with my responders during an alert": off until she turns it on.
    /// Her location is then captured at her SOS and her plans' start, extension and end.
    public var shareLocation: Bool
    /// With ``shareLocation``: also at each of her check-ins (her choice apart).
    public var shareLocationAtCheckIns: Bool

    public init(
        id: UserID, phone: String, firstName: String = "", lastName: String = "",
        emergencyNote: String = "", schedule: CheckInSchedule = .default,
        reminders: ReminderChoice = .default, graceMinutes: Int = 10,
        lastCheckInAt: Date? = nil, pauses: [Pause] = [], createdAt: Date,
        contactCode: String, hasAvatar: Bool = false, isOnboarded: Bool = false, timeZone: String = "UTC",
        watchOnly: Bool = false, language: String? = nil, hasCallInPin: Bool = false, addedTime: AddedTime? = nil,
        quietHours: QuietHours? = nil, shareLocation: Bool = false, shareLocationAtCheckIns: Bool = false
    ) {
        self.shareLocation = shareLocation
        self.shareLocationAtCheckIns = shareLocationAtCheckIns
        self.addedTime = addedTime
        self.quietHours = quietHours
        self.hasCallInPin = hasCallInPin
        self.language = language
        self.watchOnly = watchOnly
        self.timeZone = timeZone
        self.id = id
        self.phone = phone
        self.firstName = firstName
        self.lastName = lastName
        self.emergencyNote = emergencyNote
        self.schedule = schedule
        self.reminders = reminders
        self.graceMinutes = graceMinutes
        self.lastCheckInAt = lastCheckInAt
        self.pauses = pauses
        self.createdAt = createdAt
        self.contactCode = contactCode
        self.hasAvatar = hasAvatar
        self.isOnboarded = isOnboarded
    }

    public var fullName: String { Self.fullName(firstName: firstName, lastName: lastName) }

    /// First and last name with one space between, leaving out whichever is empty.
    public static func fullName(firstName: String, lastName: String) -> String {
        [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ")
    }
}

extension User {
    private enum CodingKeys: String, CodingKey {
        case id, phone, firstName, lastName, emergencyNote, schedule, reminders, graceMinutes, lastCheckInAt
        case pauses, createdAt, contactCode, hasAvatar, isOnboarded, timeZone, watchOnly, language, hasCallInPin
        case addedTime, quietHours, shareLocation, shareLocationAtCheckIns
    }

    /// `timeZone` may be missing (a client or file from before it existed): then UTC; so may
    /// `language` (then nil), `hasCallInPin` (then false), `quietHours` and the location
    /// switches (then off) and `pauses` (then none).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decode(UserID.self, forKey: .id), phone: try c.decode(String.self, forKey: .phone),
            firstName: try c.decode(String.self, forKey: .firstName), lastName: try c.decode(String.self, forKey: .lastName),
            emergencyNote: try c.decode(String.self, forKey: .emergencyNote),
            schedule: try c.decode(CheckInSchedule.self, forKey: .schedule),
            reminders: try c.decode(ReminderChoice.self, forKey: .reminders),
            graceMinutes: try c.decode(Int.self, forKey: .graceMinutes),
            lastCheckInAt: try c.decodeIfPresent(Date.self, forKey: .lastCheckInAt),
            pauses: try c.decodeIfPresent([Pause].self, forKey: .pauses) ?? [],
            createdAt: try c.decode(Date.self, forKey: .createdAt), contactCode: try c.decode(String.self, forKey: .contactCode),
            hasAvatar: try c.decode(Bool.self, forKey: .hasAvatar), isOnboarded: try c.decode(Bool.self, forKey: .isOnboarded),
            timeZone: try c.decodeIfPresent(String.self, forKey: .timeZone) ?? "UTC",
            watchOnly: try c.decodeIfPresent(Bool.self, forKey: .watchOnly) ?? false,
            language: try c.decodeIfPresent(String.self, forKey: .language),
            hasCallInPin: try c.decodeIfPresent(Bool.self, forKey: .hasCallInPin) ?? false,
            addedTime: try c.decodeIfPresent(AddedTime.self, forKey: .addedTime),
            quietHours: try c.decodeIfPresent(QuietHours.self, forKey: .quietHours),
            shareLocation: try c.decodeIfPresent(Bool.self, forKey: .shareLocation) ?? false,
            shareLocationAtCheckIns: try c.decodeIfPresent(Bool.self, forKey: .shareLocationAtCheckIns) ?? false)
    }
}

/// A deadline she moved later before it came ("give me 2 more hours"): told to nobody.
public struct AddedTime: Codable, Hashable, Sendable {
    /// The deadline her rhythm gave.
    public var from: Date
    /// The deadline now.
    public var until: Date

    public init(from: Date, until: Date) {
        self.from = from
        self.until = until
    }
}
