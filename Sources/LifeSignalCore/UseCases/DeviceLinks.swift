import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// Device check-in links: secret addresses a button, a sensor or a shortcut calls to check the
/// person in, and nothing else (``DeviceLink``).
///
/// Making one needs her at a device she signed in on (it is a new key to her check-ins, like
/// an API token). A call to a link answers the same whatever happened — checked in, counted
/// with the call a moment ago, or shown as activity — and an unknown secret and a revoked one
/// are the same "not found": the link says nothing about her to whoever holds it.
public struct DeviceLinks: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

extension DeviceLinks {
    /// Makes a link; its address (with the secret) is in the answer and never again.
    public func create(_ caller: Caller, name rawName: String, resolvesAlerts: Bool = false) async throws -> NewDeviceLink {
        guard let name = Validation.label(rawName) else {
            throw ServiceError.invalid(field: "name", Said("error.deviceLinkName"))
        }
        try caller.requireSignIn(now: core.now, Said("error.deviceLinkByToken"))
        let secret = "lsd_" + Secrets.base64URL(core.environment.randomBytes(32))
        let link = DeviceLink(id: core.newID(), name: name, resolvesAlerts: resolvesAlerts, createdAt: core.now)
        try await core.write { tx, _ in
            // Counted under the person's lock, so two requests racing cannot both make the 11th.
            _ = try await tx.people.lockEscalations([caller.user.id])
            guard try await tx.deviceLinks.count(of: caller.user.id) < DeviceLink.limit else {
                throw ServiceError(.conflict, code: .tooManyDeviceLinks, Said("error.tooManyDeviceLinks"))
            }
            try await tx.deviceLinks.insert(link, of: caller.user.id, secretHash: Secrets.sha256Hex(secret))
            try await tx.timeline.append(
                caller.user.id, at: core.now, summary: "Device check-in link added: \(name)",
                DeviceLinkAdded(link: link.id, name: name))
        }
        return NewDeviceLink(link: link, url: Self.url(base: core.configuration.publicBaseURL, secret: secret))
    }

    public func list(_ caller: Caller) async throws -> [DeviceLink] {
        try await core.read { try await $0.deviceLinks.all(of: caller.user.id) }
    }

    /// Revokes one of her links at once, on every instance (each call reads the row), and
    /// returns it as it was.
    @discardableResult
    public func revoke(_ caller: Caller, id: DeviceLinkID) async throws -> DeviceLink {
        try await core.write { tx, _ in
            guard let link = try await tx.deviceLinks.all(of: caller.user.id).first(where: { $0.id == id }),
                try await tx.deviceLinks.delete(id, of: caller.user.id)
            else {
                throw ServiceError(.notFound, code: .deviceLinkNotFound, Said("error.deviceLinkNotFound"))
            }
            try await tx.timeline.append(
                caller.user.id, at: core.now, summary: "Device check-in link revoked: \(link.name)",
                DeviceLinkRevoked(link: id, name: link.name))
            return link
        }
    }

    /// A call to a link. False when no link has this secret (never made, or revoked).
    ///
    /// Calls within ``DeviceLink/coalescingSeconds`` of the last one that counted are that one
    /// check-in. While a missed check-in is open, a link that may not end it adds activity to
    /// the alert instead (her responders see it; she has not confirmed anything).
    public func use(secret: String) async throws -> Bool {
        guard secret.hasPrefix("lsd_"), secret.utf8.count <= 64 else { return false }
        let hash = Secrets.sha256Hex(secret)
        // A read first: a script looping on an unknown secret, or a sensor firing every second,
        // never queues for the one writer. The write's conditional UPDATE is what decides.
        guard let seen = try await core.read({ try await $0.deviceLinks.deviceLink(secretHash: hash) }) else { return false }
        if let used = seen.link.lastUsedAt, core.now.timeIntervalSince(used) < DeviceLink.coalescingSeconds { return true }
        return try await core.write { tx, events in
            guard let owned = try await tx.deviceLinks.deviceLink(secretHash: hash) else { return false }
            let (link, userID) = (owned.link, owned.userID)
            guard try await tx.deviceLinks.use(link.id, at: core.now, coalescing: DeviceLink.coalescingSeconds) else {
                return true
            }
            let open = try await tx.incidents.openIncidents(of: userID).filter { $0.kind == .missedCheckIn }
            if !open.isEmpty && !link.resolvesAlerts {
                guard let user = try await tx.people.lockEscalations([userID]).first?.user else { return false }
                for incident in open {
                    try await tx.deviceLinks.insertIncidentActivity(incident.id, DeviceActivity(device: link.name, at: core.now))
                    try await tx.timeline.append(
                        userID, at: core.now, summary: "Activity from \(link.name), not confirmed: the alert stays open",
                        DeviceActivitySeen(device: link.name, incident: incident.id))
                }
                try await core.publishStatus(of: user, tx: tx, events: events)
                return true
            }
            _ = try await core.recordCheckIn(
                userID: userID, id: core.newID(), clientAt: nil, source: .device, recordedBy: nil, device: link.name, tx: tx,
                events: events)
            return true
        }
    }

    static func url(base: String, secret: String) -> String {
        (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/d/" + secret
    }
}
