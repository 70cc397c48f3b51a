import Foundation

/// Everything LifeSignal holds about a person that she can read herself, in one document
/// (`GET /v1/me/export`): her profile with its schedule, her contacts both ways, every
/// check-in, the alerts about her and her timeline. Only what the API already shows her:
/// no tokens, hashes, PINs or signing secrets, and her sealed details stay out (they have
/// their own page, which records every read).
public struct DataExport: Sendable, Hashable, Codable {
    /// The shape of this document; raised when a field changes meaning or goes away.
    public static let currentFormatVersion = 1

    public var formatVersion: Int
    public var exportedAt: Date
    /// Her profile, with her check-in schedule, reminders and grace.
    public var profile: User
    /// The people who watch over her and the people she watches over, as her contacts list
    /// shows them.
    public var contacts: ContactLists
    /// Every check-in, oldest first.
    public var checkIns: [CheckIn]
    /// Every alert about her, oldest first.
    public var incidents: [Incident]
    /// Her whole timeline, oldest first.
    public var timeline: [TimelineEntry]
    /// Her device check-in links (names and use, never their addresses).
    public var deviceLinks: [DeviceLink]
    /// Her plans (the last 50), with the details not yet erased.
    public var plans: [Plan]
    /// Her own locations still kept (with location sharing on): her latest, and those of her
    /// alerts until 30 days after each ended.
    public var locations: [StoredLocation]

    public init(
        formatVersion: Int = Self.currentFormatVersion, exportedAt: Date, profile: User, contacts: ContactLists,
        checkIns: [CheckIn], incidents: [Incident], timeline: [TimelineEntry], deviceLinks: [DeviceLink] = [],
        plans: [Plan] = [], locations: [StoredLocation] = []
    ) {
        self.locations = locations
        self.formatVersion = formatVersion
        self.exportedAt = exportedAt
        self.profile = profile
        self.contacts = contacts
        self.checkIns = checkIns
        self.incidents = incidents
        self.timeline = timeline
        self.deviceLinks = deviceLinks
        self.plans = plans
    }
}
