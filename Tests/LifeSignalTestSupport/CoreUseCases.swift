import LifeSignalCore

/// A test world over one `ServiceCore`: every use case of the product, built over that core
/// (each is a small value, so a fresh one per call costs nothing).
public protocol CoreUseCases {
    var core: ServiceCore { get }
}

extension CoreUseCases {
    public var accounts: Accounts { Accounts(core) }
    public var profiles: Profiles { Profiles(core) }
    public var checkIns: CheckIns { CheckIns(core) }
    public var contacts: Contacts { Contacts(core) }
    public var pings: Pings { Pings(core) }
    public var incidents: Incidents { Incidents(core) }
    public var notifications: Notifications { Notifications(core) }
    public var channels: Channels { Channels(core) }
    public var timeline: Timeline { Timeline(core) }
    public var drills: Drills { Drills(core) }
    public var replies: Replies { Replies(core) }
    public var sealedDetails: SealedDetailsAccess { SealedDetailsAccess(core) }
    public var plans: Plans { Plans(core) }
    public var pauses: Pauses { Pauses(core) }
    public var locations: Locations { Locations(core) }
    public var health: Health { Health(core) }
    public var live: LiveUpdates { LiveUpdates(core) }
}
