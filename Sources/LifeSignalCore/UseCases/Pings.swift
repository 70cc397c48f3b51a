import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// "Are you OK?": a responder pings someone they watch over, who answers with a check-in or
/// with "I need help".
public struct Pings: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

extension Pings {
    /// A responder asks a dependent "are you OK?"; one pending ping per pair.
    public func ping(_ caller: Caller, dependent dependentID: UserID) async throws -> Ping {
        try await core.write { tx, events in
            guard try await tx.links.link(userID: caller.user.id, contactID: dependentID)?.roles.isDependent == true else {
                throw ServiceError(.forbidden, code: .notADependent, Said("error.notADependent"))
            }
            if try await tx.pings.pending(from: caller.user.id, to: dependentID) != nil {
                throw ServiceError(.conflict, code: .alreadyPinged, Said("error.alreadyPinged"))
            }
            try await core.enforceLimit(
                core.configuration.limits.pings, refusal: .tooManyPings, sender: caller.user.id, recipient: dependentID,
                message: Said("error.tooManyPings"), tx: tx)
            let ping = Ping(id: core.newID(), fromUserID: caller.user.id, toUserID: dependentID, sentAt: core.now)
            try await tx.pings.insert(ping)
            let me = try await core.displayName(caller.user.id, tx: tx)
            try await core.notify(
                NotificationDraft(
                    recipient: dependentID, kind: .pingReceived, subject: caller.user.id, stepKey: .ping(ping.id, .sent)
                ) { w in (w("ping.received.title", ["name": me]), w("ping.received.body", ["name": me])) },
                tx: tx, events: events)
            try await tx.timeline.append(
                dependentID, at: core.now, summary: "Pinged by \(me)", PingReceived(ping: ping.id, from: caller.user.id))
            events.add(.contactsChanged, to: [caller.user.id, dependentID])
            return ping
        }
    }

    /// The responder withdraws their ping; the dependent is told.
    public func clearPing(_ caller: Caller, id: PingID) async throws {
        try await core.write { tx, events in
            guard let ping = try await tx.pings.ping(id), ping.fromUserID == caller.user.id else {
                throw ServiceError(.notFound, code: .pingNotFound, Said("error.pingNotFound"))
            }
            guard try await tx.pings.clear(id, at: core.now) else {
                throw ServiceError(.conflict, code: .pingNotPending, Said("error.pingDone"))
            }
            try await core.enforceLimit(
                core.configuration.limits.pingClears, refusal: .tooManyPingClears, sender: caller.user.id, recipient: ping.toUserID,
                message: Said("error.tooManyPingClears"), tx: tx)
            let me = try await core.displayName(caller.user.id, tx: tx)
            try await core.notify(
                NotificationDraft(
                    recipient: ping.toUserID, kind: .pingCleared, subject: caller.user.id, stepKey: .ping(id, .cleared)
                ) { w in (w("ping.withdrawn.title", ["name": me]), w("ping.withdrawn.body")) },
                tx: tx, events: events)
            events.add(.contactsChanged, to: [caller.user.id, ping.toUserID])
        }
    }

    /// The dependent answers one ping (or, with `id` nil, all of them): it counts as a
    /// check-in and each sender is told.
    public func answerPings(_ caller: Caller, id: PingID?, checkInID: CheckInID) async throws -> CheckInResult {
        try await core.write { tx, events in
            let pending = try await tx.pings.pending(involving: caller.user.id).filter { $0.toUserID == caller.user.id }
            let answering = id.map { id in pending.filter { $0.id == id } } ?? pending
            if let id, answering.isEmpty {
                let exists = try await tx.pings.ping(id)?.toUserID == caller.user.id
                throw exists
                    ? ServiceError(.conflict, code: .pingNotPending, Said("error.pingDone"))
                    : ServiceError(.notFound, code: .pingNotFound, Said("error.pingNotFound"))
            }
            guard !answering.isEmpty else {
                throw ServiceError(.conflict, code: .noPendingPings, Said("error.noPendingPings"))
            }
            let me = try await core.displayName(caller.user.id, tx: tx)
            for ping in answering {
                _ = try await tx.pings.answer(ping.id, at: core.now)
                try await core.notify(
                    NotificationDraft(
                        recipient: ping.fromUserID, kind: .pingAnswered, subject: caller.user.id,
                        stepKey: .ping(ping.id, .answered)
                    ) { w in (w("ping.answered.title", ["name": me]), w("ping.answered.body", ["name": me])) },
                    tx: tx, events: events)
            }
            events.add(.contactsChanged, to: [caller.user.id] + answering.map(\.fromUserID))
            return try await core.recordCheckIn(
                userID: caller.user.id, id: checkInID, clientAt: nil, source: .pingAnswer, recordedBy: nil, tx: tx, events: events)
        }
    }

    /// The dependent answers a ping "I need help": the ping is answered, its sender is told
    /// so in words, and an alert is raised exactly as the SOS button does (every responder,
    /// every channel, never refused). It is not a check-in.
    public func answerPingWithHelp(_ caller: Caller, id: PingID) async throws -> Incident {
        try await core.write { tx, events in
            guard let user = try await tx.people.user(caller.user.id) else { throw ServiceError.unauthorized }
            guard let ping = try await tx.pings.ping(id), ping.toUserID == user.id else {
                throw ServiceError(.notFound, code: .pingNotFound, Said("error.pingNotFound"))
            }
            let me = ServiceCore.displayName(of: user)
            if try await tx.pings.answer(ping.id, at: core.now) {
                try await core.notify(
                    NotificationDraft(
                        recipient: ping.fromUserID, kind: .pingAnswered, subject: user.id, stepKey: .ping(ping.id, .answered)
                    ) { w in (w("ping.help.title", ["name": me]), w("ping.help.body", ["name": me])) },
                    tx: tx, events: events)
                events.add(.contactsChanged, to: [user.id, ping.fromUserID])
            }
            // Asking for help is never refused, even when the ping was answered meanwhile.
            return try await core.raise(user, tx: tx, events: events)
        }
    }
}

extension ServiceCore {
    /// Clears pings a changed or removed link no longer allows, telling the dependent.
    /// `roles` are the caller's new roles for the contact (empty when the link goes).
    func clearPingsNoLongerAllowed(
        between userID: UserID, and contactID: UserID, roles: ContactRoles, tx: StoreTransaction, events: PendingEvents
    ) async throws {
        // userID pings contactID only while contactID is userID's dependent, and the reverse
        // only while contactID is userID's responder.
        if !roles.isDependent, let ping = try await tx.pings.pending(from: userID, to: contactID) {
            _ = try await tx.pings.clear(ping.id, at: now)
            let name = try await displayName(userID, tx: tx)
            try await notify(
                NotificationDraft(recipient: contactID, kind: .pingCleared, subject: userID, stepKey: .ping(ping.id, .cleared)) { w in
                    (w("ping.cleared.title"), w("ping.cleared.body", ["name": name]))
                },
                tx: tx, events: events)
        }
        if !roles.isResponder, let ping = try await tx.pings.pending(from: contactID, to: userID) {
            _ = try await tx.pings.clear(ping.id, at: now)
            let name = try await displayName(contactID, tx: tx)
            try await notify(
                NotificationDraft(recipient: userID, kind: .pingCleared, subject: contactID, stepKey: .ping(ping.id, .cleared)) { w in
                    (w("ping.cleared.title"), w("ping.cleared.body", ["name": name]))
                },
                tx: tx, events: events)
        }
    }
}
