import Foundation
import LifeSignalModels
import LifeSignalStore

/// What a timeline entry records for programs besides its sentence: one type per kind, so an
/// entry of a kind always carries the same fields, named and typed once.
///
/// Stored as flat JSON with sorted keys whose values are all strings (`{"id":"…","source":
/// "app"}`), the form entries have always had: identifiers and raw values as their text,
/// numbers in decimal, dates in ISO 8601. The text is part of the hash chain, so it is
/// written the same way every time (`TimelineDetailEncoder`).
protocol TimelineDetail: Encodable, Sendable {
    /// The entry's `kind` (`check_in`, `incident_opened`…).
    static var kind: String { get }
}

extension StoreTransaction.Timeline {
    /// Appends an entry of `detail`'s kind to the person's hash-chained timeline.
    @discardableResult
    func append(_ userID: UserID, at: Date, summary: String, _ detail: some TimelineDetail) async throws -> TimelineEntry {
        try await append(
            userID, at: at, kind: type(of: detail).kind, summary: summary, detail: TimelineDetailEncoder.json(detail))
    }
}

// MARK: - The kinds

struct AccountCreated: TimelineDetail { static let kind = "account_created" }
struct PhoneChanged: TimelineDetail { static let kind = "phone_changed" }
struct CodeRotated: TimelineDetail { static let kind = "code_rotated" }

struct CheckedIn: TimelineDetail {
    static let kind = "check_in"
    var id: CheckInID
    var source: CheckIn.Source
    /// The deadline the check-in moved to.
    var deadline: Date
    /// True when she also asked for a call today; absent otherwise (older entries never had it).
    var callMe: Bool? = nil
    /// The device link's name, when one checked her in.
    var device: String? = nil
}

/// A device link's call while a missed check-in was open, which did not end it.
struct DeviceActivitySeen: TimelineDetail {
    static let kind = "device_activity"
    var device: String
    var incident: IncidentID
}

/// Watch-only switched on or off, or the rhythm, reminders or grace changed.
struct SettingsChanged: TimelineDetail {
    static let kind = "settings_changed"
    var watchOnly: Bool?
    /// The next deadline under the new settings.
    var deadline: Date?
    /// A call-in PIN was set (true) or removed (false); never the PIN.
    var callInPin: Bool?
}

struct Paused: TimelineDetail {
    static let kind = "paused"
    var until: Date
}

/// A pause planned ahead ("away from 1 to 14 August").
struct PausePlanned: TimelineDetail {
    static let kind = "pause_planned"
    var from: Date
    var until: Date
}

/// A pause planned ahead, taken away before it began.
struct PauseCalledOff: TimelineDetail {
    static let kind = "pause_called_off"
    var from: Date
    var until: Date
}

struct Resumed: TimelineDetail {
    static let kind = "resumed"
    /// Always empty: the pause ended now.
    var until = ""
}

/// The person wrote, changed or removed her sealed details (never their text).
struct SealedDetailsChanged: TimelineDetail {
    static let kind = "sealed_details_changed"
    var removed: Bool
}

/// A responder opened the person's sealed details during an open alert.
struct SealedDetailsRead: TimelineDetail {
    static let kind = "sealed_details_read"
    var incident: IncidentID
    var by: UserID
    /// How: `web`/`api` (opened on a page or through the API) or `text` (the `DETAILS` reply).
    var via: String
}

/// A responder looked at her location during an open alert: once per responder and alert,
/// never the coordinates.
struct LocationSeen: TimelineDetail {
    static let kind = "location_seen"
    var incident: IncidentID
    var by: UserID
}

/// She turned location sharing on or off (off deleted every location of hers).
struct LocationSharingChanged: TimelineDetail {
    static let kind = "location_sharing"
    var on: Bool
    var atCheckIns: Bool
}

struct IncidentOpened: TimelineDetail {
    static let kind = "incident_opened"
    var incident: IncidentID
    var kind: Incident.Kind
    /// The missed deadline (or the moment of the alert).
    var due: Date
}

struct IncidentReopened: TimelineDetail {
    static let kind = "incident_reopened"
    var incident: IncidentID
    /// How many responders this raise told.
    var told: Int
}

struct IncidentAcknowledged: TimelineDetail {
    static let kind = "incident_acknowledged"
    var incident: IncidentID
    var by: UserID
}

struct IncidentResolved: TimelineDetail {
    static let kind = "incident_resolved"
    var incident: IncidentID
    var resolution: Incident.Resolution
    var by: UserID
}

struct ClaimExpired: TimelineDetail {
    static let kind = "claim_expired"
    var incident: IncidentID
}

/// Nobody had said "I'm on it" after the last step of the ladder: `called` responders were called.
struct LadderExhausted: TimelineDetail {
    static let kind = "ladder_exhausted"
    var incident: IncidentID
    var called: Int
}

/// The person marked a responder as holding her key, or unmarked them.
struct KeyHolderChanged: TimelineDetail {
    static let kind = "key_holder"
    var contact: UserID
    var keyHolder: String
}

/// The person saved a new ladder (`steps` steps).
struct LadderSaved: TimelineDetail {
    static let kind = "ladder_saved"
    var steps: Int
}

struct NotificationSent: TimelineDetail {
    static let kind = "notification"
    var notification: NotificationID
    var type: Notification.Kind
    var recipient: UserID
}

struct DeliveryRecorded: TimelineDetail {
    static let kind = "delivery"
    var delivery: DeliveryID
    var notification: NotificationID
    var channel: ChannelKind
    var status: Delivery.Status
    var attempt: Int
}

/// Every delivery of an alert to one responder failed.
/// She asked for a call today and nobody was told: she has no responders (`nobody`), or each
/// was told already today (`already_asked`).
struct CallRequestUnsent: TimelineDetail {
    static let kind = "call_request_unsent"
    var reason: String
}

/// A try of her daily call that did not ring: `late` (not handed to the provider on time),
/// `refused` (by the provider) or `night` (the night guard held it back). Her responders were
/// asked to check on her.
struct DailyCallUnplaced: TimelineDetail {
    static let kind = "daily_call_unplaced"
    /// When the try was due.
    var due: Date
    var reason: String
}

/// A responder marked her away until `until` (nil: ended it).
struct AwaySet: TimelineDetail {
    static let kind = "away_set"
    var by: UserID
    var until: Date?
}

/// She pressed 8 twice on her daily call: the calls stopped, no check-ins are expected.
struct DailyCallsStopped: TimelineDetail { static let kind = "daily_calls_stopped" }

/// Daily calls were set up for her by `by` (on her timeline, `setup` is nil: the request is
/// the asker's), or she set them up for someone (on the asker's, with the request).
struct DailyCallSetupMade: TimelineDetail {
    static let kind = "daily_call_setup"
    var setup: DailyCallSetupID?
    var by: UserID
}

/// A request for daily calls ended: `agreed`, `declined`, `unanswered` or `cancelled`.
struct DailyCallSetupEnded: TimelineDetail {
    static let kind = "daily_call_setup_ended"
    var setup: DailyCallSetupID
    var status: String
}

struct Unreachable: TimelineDetail {
    static let kind = "unreachable"
    var incident: IncidentID
    var notification: NotificationID
    var recipient: UserID
}

struct TextsStopped: TimelineDetail {
    static let kind = "texts_stopped"
    var address: String
    /// The provider's id of the STOP text.
    var message: String
}

/// Her SOS ended by a second `SAFE` text (the resolution entry before it says who cleared it).
struct AlertEndedByText: TimelineDetail {
    static let kind = "alert_ended_by_text"
    var incident: IncidentID
    /// The provider's id of the confirming text.
    var message: String
}

struct TextsStarted: TimelineDetail {
    static let kind = "texts_started"
    var address: String
    var message: String
}

struct ContactRequested: TimelineDetail {
    static let kind = "contact_requested"
    var request: ContactRequestID
    var contact: UserID
    /// The roles asked for, in words ("responder", "responder and dependent").
    var roles: String
}

struct ContactLinked: TimelineDetail {
    static let kind = "contact_linked"
    var request: ContactRequestID
    var contact: UserID
    var roles: String
}

struct RolesRemoved: TimelineDetail {
    static let kind = "roles_removed"
    var contact: UserID
    var roles: String
}

struct PingReceived: TimelineDetail {
    static let kind = "ping_received"
    var ping: PingID
    var from: UserID
}

/// A drill: which notification went to which responder, kept as `user:notification` pairs
/// joined by commas, which `drill(_:id:)` reads back; with a ladder, each responder's step as
/// `user:step:steps:afterMinutes` (absent for a ladder that tells everyone at once).
struct DrillSent: TimelineDetail {
    static let kind = "drill"
    var drill: DrillID
    var notifications: [(UserID, NotificationID)]
    var places: [UserID: LadderPlace] = [:]

    enum CodingKeys: String, CodingKey { case drill, notifications, places }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(drill, forKey: .drill)
        try container.encode(notifications.map { "\($0.0):\($0.1)" }.joined(separator: ","), forKey: .notifications)
        let placed = notifications.compactMap { user, _ in
            places[user].map { "\(user):\($0.step):\($0.steps):\($0.afterMinutes)" }
        }
        if !placed.isEmpty { try container.encode(placed.joined(separator: ","), forKey: .places) }
    }

    /// The drill recorded in an entry's detail, or nil when the detail is another drill's or
    /// not readable. The places come back without the names before them (the report has them).
    static func read(_ detail: String) -> DrillSent? {
        guard let data = detail.data(using: .utf8),
            let fields = try? JSONSerialization.jsonObject(with: data) as? [String: String],
            let drill = fields["drill"].flatMap(DrillID.init(string:))
        else { return nil }
        let pairs = (fields["notifications"] ?? "").split(separator: ",").compactMap { pair -> (UserID, NotificationID)? in
            let parts = pair.split(separator: ":")
            guard parts.count == 2, let user = UserID(string: String(parts[0])),
                let notification = NotificationID(string: String(parts[1]))
            else { return nil }
            return (user, notification)
        }
        var places: [UserID: LadderPlace] = [:]
        for entry in (fields["places"] ?? "").split(separator: ",") {
            let parts = entry.split(separator: ":").map(String.init)
            guard parts.count == 4, let user = UserID(string: parts[0]), let step = Int(parts[1]), let steps = Int(parts[2]),
                let after = Int(parts[3])
            else { continue }
            places[user] = LadderPlace(step: step, steps: steps, afterMinutes: after, before: [])
        }
        return DrillSent(drill: drill, notifications: pairs, places: places)
    }
}

/// A device check-in link made or revoked (never its secret).
struct DeviceLinkAdded: TimelineDetail {
    static let kind = "device_link_added"
    var link: DeviceLinkID
    var name: String
}

struct DeviceLinkRevoked: TimelineDetail {
    static let kind = "device_link_revoked"
    var link: DeviceLinkID
    var name: String
}

/// She started a plan ("check on me by 18:00"); never its details.
struct PlanStarted: TimelineDetail {
    static let kind = "plan_started"
    var plan: PlanID
    var title: String
    var due: Date
}

/// She moved a plan's due time.
struct PlanExtended: TimelineDetail {
    static let kind = "plan_extended"
    var plan: PlanID
    var due: Date
}

/// A plan ended: she is back (`done`) or called it off (`cancelled`).
struct PlanEnded: TimelineDetail {
    static let kind = "plan_ended"
    var plan: PlanID
    var state: Plan.State
}

/// She moved her next deadline later ("give me 2 more hours"), before it came.
struct TimeAdded: TimelineDetail {
    static let kind = "time_added"
    var deadline: Date
    var minutes: Int
}
