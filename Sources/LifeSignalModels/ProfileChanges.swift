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

    public init(
        firstName: String? = nil, lastName: String? = nil, emergencyNote: String? = nil,
        schedule: CheckInSchedule? = nil, reminders: ReminderChoice? = nil, graceMinutes: Int? = nil,
        timeZone: String? = nil, watchOnly: Bool? = nil, language: String? = nil, sealedDetails: String? = nil,
        callInPin: String? = nil
    ) {
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
