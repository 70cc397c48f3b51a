import Foundation

/// Days off: a stretch of time in which nothing is expected of the person and nobody is
/// alerted about a missed check-in ("away from Saturday 12:00 to Monday 09:00").
///
/// Every pause ends by itself. She may hold up to ``upcomingLimit`` that have not ended yet,
/// each at most ``longest``; they never overlap. When one ends she has a whole period ahead
/// (``LifeSignalRules/Deadline``), as if she had checked in at its end.
public struct Pause: Identifiable, Codable, Hashable, Sendable {
    public var id: PauseID
    public var from: Date
    public var until: Date
    /// Who set it: she herself, or the responder who looks after her daily calls ("away").
    public var setBy: UserID
    /// Their name when they set it, for "paused until Tuesday 09:00, set by Ada".
    public var setByName: String
    /// When it was set: a pause set to start at once ("pause now") is her word that she is
    /// there, even past a deadline; one set ahead excuses only deadlines after it begins.
    public var setAt: Date

    public init(id: PauseID, from: Date, until: Date, setBy: UserID, setByName: String, setAt: Date) {
        self.id = id
        self.from = from
        self.until = until
        self.setBy = setBy
        self.setByName = setByName
        self.setAt = setAt
    }

    /// A pause set at `now` to start at once ("pause now until Sunday").
    public static func startingNow(_ now: Date, until: Date, setBy: UserID, setByName: String) -> Pause {
        Pause(id: PauseID(UUID()), from: now, until: until, setBy: setBy, setByName: setByName, setAt: now)
    }

    /// Whether it began the moment it was set ("pause now", not a pause planned ahead).
    public var startedWhenSet: Bool { from <= setAt }

    /// Whether the pause holds at `date` (from its start up to, not including, its end).
    public func covers(_ date: Date) -> Bool { from <= date && date < until }

    /// At most this many pauses that have not ended.
    public static let upcomingLimit = 20
    /// The longest single pause.
    public static let longest: TimeInterval = 30 * 86400
    /// How far ahead a pause may start.
    public static let furthestStart: TimeInterval = 366 * 86400
}

public typealias PauseID = Identifier<Pause>

/// What becomes of an open alert about a missed check-in when she pauses from now: she must
/// say; pausing does not answer it by itself. (A late plan's alert is the plan's: a pause never
/// touches plans.)
public enum OpenIncidentChoice: String, Codable, Hashable, Sendable, CaseIterable {
    /// End it as her own check-in: everyone who was told hears the all-clear.
    case resolve
    /// Leave it open: her responders keep handling it; only what follows is paused.
    case keepOpen = "keep_open"
}
