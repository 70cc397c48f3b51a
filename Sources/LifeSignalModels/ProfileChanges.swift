import Foundation

/// An edit of a person's own profile and settings; absent fields stay as they are.
public struct ProfileChanges: Codable, Hashable, Sendable {
    public var firstName: String?
    public var lastName: String?
    public var emergencyNote: String?
    /// What the first person at the door needs (door code, key, medication, pets): shown to
    /// responders only while an alert about the person is open, each view recorded and told.
    /// An empty text removes them.
    public var sealedDetails: String?
    public var schedule: CheckInSchedule?
    public var reminders: ReminderChoice?
    public var graceMinutes: Int?
    /// IANA time zone the person's times are written in.
    public var timeZone: String?
    /// "I only watch over others" on or off (off starts the rhythm from now).
    public var watchOnly: Bool?
    /// The language messages to the person are in (BCP 47, `de`, `de-AT`).
    public var language: String?
    /// Four digits a call to LifeSignal's number from her phone must give before its menu
    /// (against someone calling from a number made to look like hers). An empty text removes it.
    public var callInPin: String?
    /// New quiet hours; with ``clearsQuietHours``, none (`"quietHours": null` in the API).
    public var quietHours: QuietHours?
    public var clearsQuietHours = false
    /// "Share my location with my responders during an alert" on or off; off deletes every
    /// location of hers at once.
    public var shareLocation: Bool?
    /// Also capture it at each check-in (only while ``shareLocation`` is on).
    public var shareLocationAtCheckIns: Bool?

    public init(
        firstName: String? = nil, lastName: String? = nil, emergencyNote: String? = nil,
        schedule: CheckInSchedule? = nil, reminders: ReminderChoice? = nil, graceMinutes: Int? = nil,
        timeZone: String? = nil, watchOnly: Bool? = nil, language: String? = nil, sealedDetails: String? = nil,
        callInPin: String? = nil, quietHours: QuietHours? = nil, clearsQuietHours: Bool = false, shareLocation: Bool? = nil,
        shareLocationAtCheckIns: Bool? = nil
    ) {
        self.shareLocation = shareLocation
        self.shareLocationAtCheckIns = shareLocationAtCheckIns
        self.quietHours = quietHours
        self.clearsQuietHours = clearsQuietHours
        self.callInPin = callInPin
        self.sealedDetails = sealedDetails
        self.language = language
        self.watchOnly = watchOnly
        self.timeZone = timeZone
        self.firstName = firstName
        self.lastName = lastName
        self.emergencyNote = emergencyNote
        self.schedule = schedule
        self.reminders = reminders
        self.graceMinutes = graceMinutes
    }
}

extension ProfileChanges {
    private enum CodingKeys: String, CodingKey {
        case firstName, lastName, emergencyNote, sealedDetails, schedule, reminders, graceMinutes, timeZone, watchOnly
        case language, callInPin, quietHours, shareLocation, shareLocationAtCheckIns
    }

    /// Absent fields stay as they are; `quietHours` may also be `null`, which turns them off.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            firstName: try c.decodeIfPresent(String.self, forKey: .firstName),
            lastName: try c.decodeIfPresent(String.self, forKey: .lastName),
            emergencyNote: try c.decodeIfPresent(String.self, forKey: .emergencyNote),
            schedule: try c.decodeIfPresent(CheckInSchedule.self, forKey: .schedule),
            reminders: try c.decodeIfPresent(ReminderChoice.self, forKey: .reminders),
            graceMinutes: try c.decodeIfPresent(Int.self, forKey: .graceMinutes),
            timeZone: try c.decodeIfPresent(String.self, forKey: .timeZone),
            watchOnly: try c.decodeIfPresent(Bool.self, forKey: .watchOnly),
            language: try c.decodeIfPresent(String.self, forKey: .language),
            sealedDetails: try c.decodeIfPresent(String.self, forKey: .sealedDetails),
            callInPin: try c.decodeIfPresent(String.self, forKey: .callInPin),
            quietHours: try c.decodeIfPresent(QuietHours.self, forKey: .quietHours),
            clearsQuietHours: try c.contains(.quietHours) && c.decodeNil(forKey: .quietHours),
            shareLocation: try c.decodeIfPresent(Bool.self, forKey: .shareLocation),
            shareLocationAtCheckIns: try c.decodeIfPresent(Bool.self, forKey: .shareLocationAtCheckIns))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(firstName, forKey: .firstName)
        try c.encodeIfPresent(lastName, forKey: .lastName)
        try c.encodeIfPresent(emergencyNote, forKey: .emergencyNote)
        try c.encodeIfPresent(sealedDetails, forKey: .sealedDetails)
        try c.encodeIfPresent(schedule, forKey: .schedule)
        try c.encodeIfPresent(reminders, forKey: .reminders)
        try c.encodeIfPresent(graceMinutes, forKey: .graceMinutes)
        try c.encodeIfPresent(timeZone, forKey: .timeZone)
        try c.encodeIfPresent(watchOnly, forKey: .watchOnly)
        try c.encodeIfPresent(language, forKey: .language)
        try c.encodeIfPresent(callInPin, forKey: .callInPin)
        if clearsQuietHours { try c.encodeNil(forKey: .quietHours) } else { try c.encodeIfPresent(quietHours, forKey: .quietHours) }
        try c.encodeIfPresent(shareLocation, forKey: .shareLocation)
        try c.encodeIfPresent(shareLocationAtCheckIns, forKey: .shareLocationAtCheckIns)
    }
}
