import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// A timeline entry in its reader's language.
///
/// The stored entry never changes: its English `summary` is part of the hash chain, so the
/// API, exports and checks keep it byte for byte. What a person reads is made when it is
/// read, from the entry's `kind` and `detail` (and the names of the people it points at, as
/// they are now); an entry it cannot say — a kind without words here, a detail it cannot
/// read, someone whose name is gone — is shown as its stored English summary.
extension Timeline {
    /// The sentence for `entry` in `words`' language, times in `zone`; `names` gives the
    /// people the entry points at by id.
    public static func sentence(
        for entry: TimelineEntry, words: Words, zone: TimeZone, names: [UserID: String] = [:]
    ) -> String {
        // English readers read the record as it was written.
        guard words.language.primary != "en" else { return entry.summary }
        let fields = detailFields(entry.detail)
        func name(_ field: String) -> String? { fields[field].flatMap(UserID.init(string:)).flatMap { names[$0] } }
        func date(_ field: String) -> Date? { fields[field].flatMap(ISODate.parse) }
        let said: String? =
            switch entry.kind {
            case AccountCreated.kind: words("timeline.accountCreated")
            case PhoneChanged.kind: words("timeline.phoneChanged")
            case CodeRotated.kind: words("timeline.codeRotated")
            case Resumed.kind: words("timeline.resumed")
            case AlertEndedByText.kind: words("timeline.alertEndedByText")
            case CheckedIn.kind where fields["device"] != nil:
                words("timeline.checkedIn.device", ["device": fields["device"] ?? ""])
            case CheckedIn.kind:
                // A responder's check-in names them in the summary alone: the stored words say it.
                fields["source"].flatMap(CheckIn.Source.init(rawValue:)).flatMap { source in
                    guard entry.summary.hasPrefix("Checked in ") else { return nil }
                    let checkedIn = words(checkInKey(source))
                    return fields["callMe"] == "true" ? words("timeline.askedForCall", ["checkedIn": checkedIn]) : checkedIn
                }
            case DeviceActivitySeen.kind: words("timeline.deviceActivity", ["device": fields["device"] ?? ""])
            case DeviceLinkAdded.kind: words("timeline.deviceLink.added", ["device": fields["name"] ?? ""])
            case DeviceLinkRevoked.kind: words("timeline.deviceLink.revoked", ["device": fields["name"] ?? ""])
            case TimeAdded.kind:
                date("deadline").map { words("timeline.timeAdded", ["when": HumanTime.dated($0, in: zone, words: words)]) }
            case PlanStarted.kind: words("timeline.plan.started", ["title": fields["title"] ?? ""])
            case PlanExtended.kind:
                date("due").map { words("timeline.plan.extended", ["when": HumanTime.dated($0, in: zone, words: words)]) }
            case PlanEnded.kind: words(fields["state"] == "done" ? "timeline.plan.back" : "timeline.plan.calledOff")
            case CallRequestUnsent.kind:
                fields["reason"] == "nobody" ? words("timeline.callRequest.nobody") : words("timeline.callRequest.already")
            case SettingsChanged.kind:
                if let pin = fields["callInPin"] {
                    words(pin == "true" ? "timeline.callInPin.set" : "timeline.callInPin.removed")
                } else if fields["watchOnly"] == "true" {
                    words("timeline.watchOnly")
                } else if let deadline = date("deadline") {
                    words(
                        fields["watchOnly"] == "false" ? "timeline.checkingInAgain" : "timeline.settingsChanged",
                        ["when": HumanTime.dated(deadline, in: zone, words: words)])
                } else {
                    nil
                }
            case Paused.kind: date("until").map { words("timeline.paused", ["when": HumanTime.dated($0, in: zone, words: words)]) }
            case PausePlanned.kind:
                date("from").flatMap { from in
                    date("until").map { until in
                        words(
                            "timeline.pausePlanned",
                            [
                                "from": HumanTime.dated(from, in: zone, words: words),
                                "until": HumanTime.dated(until, in: zone, words: words),
                            ])
                    }
                }
            case PauseCalledOff.kind:
                date("from").map { words("timeline.pauseCalledOff", ["from": HumanTime.dated($0, in: zone, words: words)]) }
            case IncidentOpened.kind:
                switch fields["kind"].flatMap(Incident.Kind.init(rawValue:)) {
                case .manualAlert: words("timeline.alertRaised")
                case .missedCheckIn:
                    words(entry.summary.hasSuffix("(late)") ? "timeline.missedOpened.late" : "timeline.missedOpened")
                case .planOverdue: words("timeline.planOpened")
                case nil: nil
                }
            case IncidentReopened.kind: fields["told"].flatMap(Int.init).flatMap { $0 > 0 ? words("timeline.alertRaisedAgain") : nil }
            case IncidentResolved.kind:
                // Which kind of incident ended is in the stored words only.
                fields["resolution"].flatMap(Incident.Resolution.init(rawValue:)).map { resolution in
                    words(endedKey(resolution, alert: entry.summary.hasPrefix("Emergency alert")))
                }
            case IncidentAcknowledged.kind: name("by").map { words("timeline.handling", ["name": $0]) }
            case LocationSeen.kind: name("by").map { words("timeline.locationSeen", ["name": $0]) }
            case LocationSharingChanged.kind:
                words(
                    fields["on"] != "true"
                        ? "timeline.locationSharing.off"
                        : fields["atCheckIns"] == "true" ? "timeline.locationSharing.onCheckIns" : "timeline.locationSharing.on")
            case PingReceived.kind: name("from").map { words("timeline.pinged", ["name": $0]) }
            case Unreachable.kind: name("recipient").map { words("timeline.unreachable", ["name": $0]) }
            case LadderExhausted.kind: words("timeline.ladderExhausted")
            case DailyCallsStopped.kind: words("timeline.dailyCallsStopped")
            case DailyCallUnplaced.kind:
                date("due").map { words("timeline.dailyCallUnplaced", ["time": HumanTime.clock($0, in: zone)]) }
            case KeyHolderChanged.kind:
                name("contact").map {
                    words(fields["keyHolder"] == "true" ? "timeline.keyHolder" : "timeline.keyHolder.removed", ["name": $0])
                }
            case LadderSaved.kind: fields["steps"].flatMap(Int.init).map { words("timeline.ladderSaved", count: $0) }
            case TextsStopped.kind: fields["address"].map { words("timeline.textsStopped", ["number": $0]) }
            case TextsStarted.kind: fields["address"].map { words("timeline.textsStarted", ["number": $0]) }
            case ContactRequested.kind:
                name("contact").flatMap { who in roles(fields["roles"], words).map { words("timeline.asked", ["name": who, "roles": $0]) } }
            case ContactLinked.kind: name("contact").map { words("timeline.linked", ["name": $0]) }
            case RolesRemoved.kind:
                name("contact").flatMap { who in
                    roles(fields["roles"], words).map { words("timeline.rolesRemoved", ["name": who, "roles": $0]) }
                }
            case DrillSent.kind: DrillSent.read(entry.detail).map { words("timeline.drill", count: $0.notifications.count) }
            default: nil
            }
        return said ?? entry.summary
    }

    /// The sentences of `entries` for the caller, in their language and zone, by sequence:
    /// what a page or a client shows instead of the stored summary. The people the entries
    /// point at are looked up once, as they are now.
    public func sentences(_ caller: Caller, for entries: [TimelineEntry]) async throws -> [Int: String] {
        let reader = Reader(caller.user)
        let ids = Set(entries.flatMap { Self.detailFields($0.detail).values.compactMap(UserID.init(string:)) })
        let people = ids.isEmpty ? [:] : try await core.read { try await $0.people.users(Array(ids)) }
        let names = people.mapValues { ServiceCore.displayName(of: $0) }
        return Dictionary(
            uniqueKeysWithValues: entries.map {
                ($0.sequence, Self.sentence(for: $0, words: reader.words, zone: reader.zone, names: names))
            })
    }

    private static func checkInKey(_ source: CheckIn.Source) -> String {
        switch source {
        case .app: "timeline.checkedIn.app"
        case .web: "timeline.checkedIn.web"
        case .cli: "timeline.checkedIn.cli"
        case .apiToken: "timeline.checkedIn.apiToken"
        case .pingAnswer: "timeline.checkedIn.pingAnswer"
        case .smsReply: "timeline.checkedIn.text"
        case .phoneKeypad: "timeline.checkedIn.keypad"
        case .dailyCall: "timeline.checkedIn.dailyCall"
        case .inboundCall: "timeline.checkedIn.inboundCall"
        case .device: "timeline.checkedIn.deviceLink"
        case .responder: "timeline.checkedIn.responder"
        }
    }

    private static func endedKey(_ resolution: Incident.Resolution, alert: Bool) -> String {
        switch (resolution, alert) {
        case (.checkedIn, false): "timeline.missedEnded.checkedIn"
        case (.checkedInByResponder, false): "timeline.missedEnded.byResponder"
        case (.cleared, false): "timeline.missedEnded.cleared"
        case (.resolvedByResponder, false): "timeline.missedEnded.resolved"
        case (.checkedIn, true): "timeline.alertEnded.checkedIn"
        case (.checkedInByResponder, true): "timeline.alertEnded.byResponder"
        case (.cleared, true): "timeline.alertEnded.cleared"
        case (.resolvedByResponder, true): "timeline.alertEnded.resolved"
        }
    }

    /// The roles of a link as stored ("responder and dependent"), in the reader's words.
    private static func roles(_ stored: String?, _ words: Words) -> String? {
        switch stored {
        case "responder and dependent": words("timeline.roles.both")
        case "responder": words("timeline.roles.responder")
        case "dependent": words("timeline.roles.dependent")
        case "contact": words("timeline.roles.contact")
        default: nil
        }
    }

    /// A detail's fields (flat JSON, every value a string); empty when it is not that.
    static func detailFields(_ detail: String) -> [String: String] {
        guard let data = detail.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return object.compactMapValues { $0 as? String }
    }
}
