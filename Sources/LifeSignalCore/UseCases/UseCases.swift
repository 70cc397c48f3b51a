/// Every use case of LifeSignal, made once over one core: the composition root hands this to
/// the JSON controllers and the web pages, so each front asks the same instances and none
/// builds its own from `ServiceCore`.
public struct UseCases: Sendable {
    public let accounts: Accounts
    public let channels: Channels
    public let checkIns: CheckIns
    public let contacts: Contacts
    public let dailyCallSetups: DailyCallSetups
    public let dataExports: DataExports
    public let deviceLinks: DeviceLinks
    public let drills: Drills
    public let health: Health
    public let incidents: Incidents
    public let ladders: Ladders
    public let live: LiveUpdates
    public let locations: Locations
    public let notifications: Notifications
    public let pauses: Pauses
    public let pings: Pings
    public let plans: Plans
    public let profiles: Profiles
    public let replies: Replies
    public let sealedDetails: SealedDetailsAccess
    public let timeline: Timeline

    public init(_ core: ServiceCore) {
        accounts = Accounts(core)
        channels = Channels(core)
        checkIns = CheckIns(core)
        contacts = Contacts(core)
        dailyCallSetups = DailyCallSetups(core)
        dataExports = DataExports(core)
        deviceLinks = DeviceLinks(core)
        drills = Drills(core)
        health = Health(core)
        incidents = Incidents(core)
        ladders = Ladders(core)
        live = LiveUpdates(core)
        locations = Locations(core)
        notifications = Notifications(core)
        pauses = Pauses(core)
        pings = Pings(core)
        plans = Plans(core)
        profiles = Profiles(core)
        replies = Replies(core)
        sealedDetails = SealedDetailsAccess(core)
        timeline = Timeline(core)
    }
}
