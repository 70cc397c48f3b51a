import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// Her location, only when it matters (``LocationFix``). Off until she turns it on
/// (`PATCH /v1/me` `shareLocation`); then her device sends a fix after her own actions — her
/// SOS (never delayed for it), a plan's start, extension or "I'm back", and each check-in if
/// she chose — or says it could not read one. With sharing off nothing is stored: the capture
/// is refused (`location_off`, 409) and turning it off deletes every location of hers.
///
/// Kept little: outside an alert only her latest, 7 days; a capture taken while an alert
/// about her is open belongs to that alert and goes 30 days after it ends (`RetentionService`).
/// Shown to her responders only while an alert about her is open, with the same checks as the
/// alert itself; each responder's first look at it during an alert is one timeline entry of
/// hers. Never in a message body.
public struct Locations: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

/// What her device sends after one of her actions (`POST /v1/me/location`): a fix, or that
/// it could not read one.
public struct LocationCapture: Sendable, Hashable {
    public var latitude: Double?
    public var longitude: Double?
    public var accuracyMeters: Double?
    public var capturedAt: Date?
    public var source: LocationSource
    /// The device could not read a position (refused, no signal, timed out).
    public var failed: Bool

    public init(
        latitude: Double? = nil, longitude: Double? = nil, accuracyMeters: Double? = nil, capturedAt: Date? = nil,
        source: LocationSource, failed: Bool = false
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracyMeters = accuracyMeters
        self.capturedAt = capturedAt
        self.source = source
        self.failed = failed
    }
}

extension Locations {
    static let sharingOff = ServiceError(.conflict, code: .locationOff, Said("error.locationOff"))

    /// Stores a capture of hers and answers what is kept. Refused, storing nothing, while
    /// sharing is off (and a check-in's while sharing at check-ins is off).
    public func record(_ caller: Caller, _ capture: LocationCapture) async throws -> LocationView {
        let now = core.now
        var fix: LocationFix?
        var failure: LocationFailure?
        do {
            if capture.failed {
                failure = LocationFailure(at: try LocationRule.captureTime(capture.capturedAt, now: now), source: capture.source)
            } else {
                fix = try LocationRule.fix(
                    latitude: capture.latitude, longitude: capture.longitude, accuracyMeters: capture.accuracyMeters,
                    capturedAt: capture.capturedAt, source: capture.source, now: now)
            }
        } catch { throw ServiceError.invalid(error) }
        let (read, failed) = (fix, failure)
        return try await core.write { tx, events in
            // Her row locked: two captures at once keep one latest, never two.
            guard let user = try await tx.people.lockEscalations([caller.user.id]).first?.user else { throw ServiceError.unauthorized }
            guard user.shareLocation, capture.source != .checkIn || user.shareLocationAtCheckIns else { throw Self.sharingOff }
            // During an alert it belongs to the newest one open; outside, it replaces what was
            // kept (a failure replaces only older failures: her last good fix stays).
            let open = try await tx.incidents.openIncidents(of: user.id).max { $0.openedAt < $1.openedAt }
            if open == nil { try await tx.locations.deleteLoose(of: user.id, failedOnly: read == nil) }
            try await tx.locations.insert(
                LocationRow(
                    id: core.newID(Identifier<LocationRow>.self).description, userID: user.id, incidentID: open?.id, fix: read,
                    failure: failed, recordedAt: now))
            // Responders with her alert open see it at once.
            if open != nil { _ = try await core.publishStatus(of: user, tx: tx, events: events) }
            return try await core.locationView(of: user, tx: tx)
        }
    }

    /// What is kept of hers and would be shown during an alert.
    public func own(_ caller: Caller) async throws -> LocationView {
        try await core.read { tx in
            guard let user = try await tx.people.user(caller.user.id) else { throw ServiceError.unauthorized }
            return try await core.locationView(of: user, tx: tx)
        }
    }

    /// Her location for a responder during an open alert about her: not found to anyone who
    /// is not her responder now, refused once the alert is over. A responder's first look
    /// during this alert (when there is something to see) is recorded on her timeline, once.
    public func forIncident(_ caller: Caller, incident id: IncidentID) async throws -> LocationView {
        let (view, person, seen) = try await core.read { tx in
            let (incident, person) = try await core.responderIncident(caller, id: id, tx: tx)
            var view = try await core.locationView(of: person, tx: tx)
            view.incidentID = incident.id
            let seen = view.isEmpty ? true : try await tx.locations.hasSeen(incident: incident.id, viewer: caller.user.id)
            return (view, person, seen)
        }
        if !seen {
            try await core.write { tx, _ in
                let at = core.now
                guard try await tx.locations.recordView(incident: id, viewer: caller.user.id, of: person.id, at: at) else { return }
                try await tx.timeline.append(
                    person.id, at: at, summary: "\(ServiceCore.displayName(of: caller.user)) saw your location",
                    LocationSeen(incident: id, by: caller.user.id))
            }
        }
        return view
    }

    /// Every capture of hers still kept (her data export).
    public func stored(_ caller: Caller) async throws -> [StoredLocation] {
        try await core.read { try await $0.locations.all(of: caller.user.id).map(\.stored) }
    }
}

extension ServiceCore {
    /// What may be shown of `user`'s location now: her newest fix of no alert (kept 7 days) or
    /// of an alert still open, and a failed capture newer than it. Nothing while sharing is off.
    func locationView(of user: User, tx: StoreTransaction) async throws -> LocationView {
        guard user.shareLocation else { return LocationView(userID: user.id, sharing: false) }
        let keptSince = now.addingTimeInterval(-LocationFix.keptOutsideAlert)
        let rows = try await tx.locations.visible(of: user.id).filter { $0.incidentID != nil || $0.recordedAt >= keptSince }
        let fix = rows.lazy.compactMap(\.fix).first
        let failure = rows.lazy.compactMap(\.failure).first.flatMap { failure in
            fix.map { failure.at > $0.capturedAt } ?? true ? failure : nil
        }
        return LocationView(userID: user.id, sharing: true, fix: fix, couldNotRead: failure)
    }

    /// Her location switches from a profile edit, in its transaction: off deletes every
    /// location of hers (and who looked) at once; a change is one timeline entry.
    func switchLocation(_ changes: ProfileChanges, current: User, saved: inout User, tx: StoreTransaction) async throws {
        guard changes.shareLocation != nil || changes.shareLocationAtCheckIns != nil else { return }
        let on = changes.shareLocation ?? current.shareLocation
        let atCheckIns = on && (changes.shareLocationAtCheckIns ?? current.shareLocationAtCheckIns)
        saved.shareLocation = on
        saved.shareLocationAtCheckIns = atCheckIns
        guard on != current.shareLocation || atCheckIns != current.shareLocationAtCheckIns else { return }
        try await tx.locations.setShareLocation(saved.id, on ? (atCheckIns ? 2 : 1) : 0)
        if !on { try await tx.locations.deleteAll(of: saved.id) }
        try await tx.timeline.append(
            saved.id, at: now,
            summary: on
                ? (atCheckIns ? "Location sharing on, at check-ins too" : "Location sharing on")
                : "Location sharing off; stored locations deleted",
            LocationSharingChanged(on: on, atCheckIns: atCheckIns))
    }
}
