import Foundation

/// Where she was, captured at one of her own actions (her SOS, a plan's start, extension or
/// "I'm back", a check-in if she chose), never in the background, and only while she has
/// switched sharing on (``User/shareLocation``). Shown to her responders only while an alert
/// about her is open, each responder's first look recorded on her timeline; never in a
/// message body.
public struct LocationFix: Codable, Hashable, Sendable {
    /// Degrees, WGS 84.
    public var latitude: Double
    public var longitude: Double
    /// The radius the device is sure of, in metres.
    public var accuracyMeters: Double
    /// When the device took it (the device's clock).
    public var capturedAt: Date
    public var source: LocationSource

    public init(latitude: Double, longitude: Double, accuracyMeters: Double, capturedAt: Date, source: LocationSource) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracyMeters = accuracyMeters
        self.capturedAt = capturedAt
        self.source = source
    }

    /// Outside an alert only her latest fix is kept, for this long.
    public static let keptOutsideAlert: TimeInterval = 7 * 86400
    /// A fix taken while an alert about her is open belongs to it, and is kept this long after it ends.
    public static let keptAfterAlert: TimeInterval = 30 * 86400
    /// Older than this, a responder is warned that she may have moved.
    public static let staleAfter: TimeInterval = 3600
    /// Coarser than this, a responder is warned that it is only a rough area.
    public static let coarseBeyondMeters: Double = 500
}

/// Which of her own actions a location was captured at.
public enum LocationSource: String, Codable, Hashable, Sendable, CaseIterable {
    case sos
    case checkIn = "check_in"
    case planStart = "plan_start"
    case planExtend = "plan_extend"
    case planBack = "plan_back"
}

/// A capture that did not give a position (permission refused, no signal, timed out): her
/// responders see "her location could not be read" rather than nothing.
public struct LocationFailure: Codable, Hashable, Sendable {
    public var at: Date
    public var source: LocationSource

    public init(at: Date, source: LocationSource) {
        self.at = at
        self.source = source
    }
}

/// Her location as it may be shown: to her (`GET /v1/me/location`, and the answer to
/// `POST /v1/me/location`) or to a responder during an open alert about her
/// (`GET /v1/incidents/{id}/location`).
public struct LocationView: Codable, Hashable, Sendable {
    public var userID: UserID
    /// The alert it is shown for (a responder's view only).
    public var incidentID: IncidentID?
    /// Whether she shares her location during an alert.
    public var sharing: Bool
    /// Her latest fix that may be shown; nil when there is none.
    public var fix: LocationFix?
    /// Her latest capture, when it failed and is newer than `fix`.
    public var couldNotRead: LocationFailure?

    public init(
        userID: UserID, incidentID: IncidentID? = nil, sharing: Bool, fix: LocationFix? = nil, couldNotRead: LocationFailure? = nil
    ) {
        self.userID = userID
        self.incidentID = incidentID
        self.sharing = sharing
        self.fix = fix
        self.couldNotRead = couldNotRead
    }

    /// Whether there is anything to show.
    public var isEmpty: Bool { fix == nil && couldNotRead == nil }
}

/// One stored capture, as her data export carries it.
public struct StoredLocation: Codable, Hashable, Sendable {
    /// Nil when the capture failed.
    public var fix: LocationFix?
    public var couldNotRead: LocationFailure?
    /// When the server stored it.
    public var recordedAt: Date
    /// The alert it belongs to, when one about her was open.
    public var incidentID: IncidentID?

    public init(fix: LocationFix?, couldNotRead: LocationFailure?, recordedAt: Date, incidentID: IncidentID?) {
        self.fix = fix
        self.couldNotRead = couldNotRead
        self.recordedAt = recordedAt
        self.incidentID = incidentID
    }
}
