import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// A person's own settings: names, schedule, reminders, pause, avatar.
public struct Profiles: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

extension Profiles {
    public func profile(_ caller: Caller) async throws -> User {
        guard let user = try await core.read({ try await $0.people.user(caller.user.id) }) else { throw ServiceError.unauthorized }
        return user
    }

    /// Applies an edit; onboarding is the first edit that gives both names.
    /// Changing the rhythm moves the deadline from the last check-in.
    ///
    /// The edit is applied to the person's row as it is when the transaction holds it (locked
    /// on PostgreSQL), not to what the request read at sign-in: a check-in, a pause or another
    /// edit that commits meanwhile is kept, never written back over with older values.
    public func updateProfile(_ caller: Caller, _ changes: ProfileChanges) async throws -> User {
        // Bad input is refused before the transaction, and changes nothing.
        var preview = caller.user
        _ = try ServiceCore.apply(changes, to: &preview)
        let sealed = try changes.sealedDetails.map { text in try validated { try Validation.sealedDetails(text) } }
        let pin = try changes.callInPin.map { text in try validated { try Validation.callInPin(text) } }
        let now = core.now
        return try await core.write { tx, events in
            guard let locked = try await tx.people.lockEscalations([caller.user.id]).first else { throw ServiceError.unauthorized }
            let current = locked.user
            var saved = current
            if try ServiceCore.apply(changes, to: &saved) { ServiceCore.leaveWatchOnly(&saved, now: now) }
            if case .dailyCall(var call) = saved.schedule, call != current.schedule.dailyCall {
                call.number = try await core.dailyCallNumber(call.number, of: saved, tx: tx)
                saved.schedule = .dailyCall(call)
            }
            if let pin {
                saved.hasCallInPin = !pin.isEmpty
                try await tx.people.setCallInPin(saved.id, hash: pin.isEmpty ? nil : ServiceCore.callInPinHash(pin, of: saved.id))
                if current.hasCallInPin || !pin.isEmpty {
                    try await tx.timeline.append(
                        saved.id, at: now, summary: pin.isEmpty ? "Call-in PIN removed" : "Call-in PIN set",
                        SettingsChanged(callInPin: !pin.isEmpty))
                }
            }
            // New quiet hours move or drop reminders of the plan under way: before its deadline
            // (only reminders are done then) its steps are counted again, as for a new deadline.
            let quietMoved = current.quietHours != saved.quietHours || (saved.quietHours != nil && current.timeZone != saved.timeZone)
            let replan = quietMoved && now < locked.deadline
            try await core.save(saved, escalation: replan ? (.distantPast, 0) : (locked.deadline, locked.step), tx: tx)
            if let sealed, try await tx.sealedDetails.details(of: saved.id)?.details != (sealed.isEmpty ? nil : sealed) {
                // The record says that they changed, never what they say.
                try await tx.sealedDetails.set(saved.id, sealed, at: now)
                try await tx.timeline.append(
                    saved.id, at: now, summary: sealed.isEmpty ? "Sealed details removed" : "Sealed details changed",
                    SealedDetailsChanged(removed: sealed.isEmpty))
            }
            try await core.switchLocation(changes, current: current, saved: &saved, tx: tx)
            if current.watchOnly != saved.watchOnly {
                try await tx.timeline.append(
                    saved.id, at: now,
                    summary: saved.watchOnly
                        ? "Watching over others only: no check-ins expected"
                        : "Checking in again; next deadline \(HumanTime.dated(Deadline.of(saved), in: HumanTime.zone(saved.timeZone)))",
                    SettingsChanged(watchOnly: saved.watchOnly))
            }
            if current.schedule != saved.schedule || current.reminders != saved.reminders || current.graceMinutes != saved.graceMinutes {
                try await tx.timeline.append(
                    saved.id, at: now,
                    summary:
                        "Check-in settings changed; next deadline \(HumanTime.dated(Deadline.of(saved), in: HumanTime.zone(saved.timeZone)))",
                    SettingsChanged(deadline: Deadline.of(saved)))
            }
            try await core.publishStatus(of: saved, tx: tx, events: events)
            return saved
        }
    }

    /// The deadline `user` would have with this rhythm, saved now (for a page that asks first).
    public func deadline(of user: User, withSchedule schedule: CheckInSchedule, reminders: ReminderChoice) -> Date {
        var changed = user
        changed.schedule = schedule
        changed.reminders = reminders
        if changed.watchOnly { ServiceCore.leaveWatchOnly(&changed, now: core.now) }
        return Deadline.of(changed)
    }

    /// Pauses reminders and incidents from now until a date (a pause that holds gets the new
    /// end); `nil` ends the pause that holds now. While an alert about a missed check-in is open
    /// she says what becomes of it (`openIncident`); during an SOS it is refused.
    public func setPause(_ caller: Caller, until: Date?, openIncident: OpenIncidentChoice? = nil) async throws -> CheckInStatus {
        let now = core.now
        if let until { try validated { try Validation.pause(from: now, until: until, now: now) } }
        return try await core.write { tx, events in
            guard let locked = try await tx.people.lockEscalations([caller.user.id]).first else { throw ServiceError.unauthorized }
            let user = try await core.pauseNow(
                locked, until: until, openIncident: openIncident, setter: locked.user, tx: tx, events: events)
            return try await core.publishStatus(of: user, tx: tx, events: events)
        }
    }

    /// Stores the picture as ``AvatarImage`` rewrites it: a checked PNG or JPEG of at most
    /// 4096 × 4096 pixels, without EXIF (a photo's GPS position), XMP, comments or text chunks.
    public func setAvatar(_ caller: Caller, bytes: [UInt8]) async throws {
        let image = try validated { try AvatarImage.sanitized(bytes) }
        try await core.write { tx, events in
            try await tx.people.setAvatar(caller.user.id, bytes: image.bytes, contentType: image.contentType)
            events.add(.contactsChanged, to: try await tx.links.all(of: caller.user.id).map(\.contactID))
        }
    }

    public func deleteAvatar(_ caller: Caller) async throws {
        try await core.write { tx, _ in try await tx.people.setAvatar(caller.user.id, bytes: nil, contentType: nil) }
    }

    /// A person's picture, visible to themselves and their contacts.
    public func avatar(_ caller: Caller, of userID: UserID) async throws -> StoredAvatar {
        try await core.read { tx in
            if userID != caller.user.id, try await tx.links.link(userID: caller.user.id, contactID: userID) == nil {
                throw ServiceError.userNotFound
            }
            guard let avatar = try await tx.people.avatar(userID) else {
                throw ServiceError(.notFound, code: .noAvatar, Said("error.noAvatar"))
            }
            return avatar
        }
    }
}

extension ServiceCore {
    /// The number a daily call rings, as stored: nil for her own phone; any other number only
    /// when she proved it as a call or text channel (calls every morning must never go to a
    /// stranger's phone, whoever typed the number in).
    func dailyCallNumber(_ number: String?, of user: User, tx: StoreTransaction) async throws -> String? {
        guard let number, !number.isEmpty else { return nil }
        let refusal = ServiceError.invalid(field: "schedule", Said("error.dailyCallNumber"))
        guard let normalized = try? Validation.phone(number) else { throw refusal }
        if normalized == user.phone { return nil }
        let proved = try await tx.channels.all(of: user.id).contains {
            $0.isVerified && ($0.kind == .voice || $0.kind == .sms) && $0.address == normalized
        }
        guard proved else { throw refusal }
        return normalized
    }

    /// Applies validated `changes` to `user`; true when the edit leaves watch-only (the rhythm
    /// then starts from now). Throws the first field that is not valid.
    static func apply(_ changes: ProfileChanges, to user: inout User) throws -> Bool {
        if let first = changes.firstName { user.firstName = try validated { try Validation.name(first, field: "firstName") } }
        if let last = changes.lastName { user.lastName = try validated { try Validation.name(last, field: "lastName") } }
        if let note = changes.emergencyNote { user.emergencyNote = try validated { try Validation.emergencyNote(note) } }
        if let schedule = changes.schedule { user.schedule = schedule }
        if let reminders = changes.reminders { user.reminders = reminders }
        if let zone = changes.timeZone {
            guard TimeZone(identifier: zone) != nil, zone.utf8.count <= 64 else {
                throw ServiceError.invalid(field: "timeZone", Said("error.timeZone"))
            }
            user.timeZone = zone
        }
        if let tag = changes.language {
            guard let language = Language(tag) else {
                throw ServiceError.invalid(field: "language", Said("error.language"))
            }
            user.language = language.tag
        }
        if changes.clearsQuietHours {
            user.quietHours = nil
        } else if let quiet = changes.quietHours {
            guard quiet.fromMinute != quiet.toMinute else {
                throw ServiceError.invalid(field: "quietHours", Said("validation.quietHours"))
            }
            user.quietHours = quiet
        }
        if let grace = changes.graceMinutes {
            try validated { try Validation.grace(grace) }
            user.graceMinutes = grace
        }
        let stopsWatchingOnly = user.watchOnly && changes.watchOnly == false
        if let watchOnly = changes.watchOnly { user.watchOnly = watchOnly }
        let (schedule, reminders) = (user.schedule, user.reminders)
        try validated { try Validation.schedule(schedule, reminders: reminders) }
        if !user.isOnboarded, !user.firstName.isEmpty, !user.lastName.isEmpty { user.isOnboarded = true }
        return stopsWatchingOnly
    }

    /// Leaving watch-only starts the rhythm from now, as the end of a pause does: nobody is
    /// overdue the moment they say they will check in.
    static func leaveWatchOnly(_ user: inout User, now: Date) {
        user.watchOnly = false
        // A pause ending now: her period starts now (one that still holds keeps holding).
        guard PauseRule.current(at: now, user.pauses) == nil else { return }
        let start = Pause.startingNow(now, until: now, setBy: user.id, setByName: user.fullName)
        user.pauses = PauseRule.kept(user.pauses + [start], lastCheckIn: user.lastCheckInAt ?? user.createdAt, now: now)
    }

    /// Saves a user with the deadline the rules derive; a new deadline restarts its plan,
    /// skipping reminders whose time has already passed.
    /// - Parameter escalation: the person's stored deadline and step, when the caller read them
    ///   with the row (`lockEscalations`); read here otherwise.
    func save(_ user: User, escalation: (deadline: Date, step: Int)? = nil, tx: StoreTransaction) async throws {
        let plan = try await escalationPlan(of: user, current: escalation, tx: tx)
        try await tx.people.update(user, deadline: plan.deadline, escalationStep: plan.step, nextActionAt: plan.nextActionAt)
    }

    /// Where `user`'s escalation stands after a change: the deadline their fields give, the
    /// step the engine is at in that deadline's plan (kept when the deadline did not move; past
    /// reminders counted as done when it did) and when the engine next acts. `current` is the
    /// state before, when the caller has read it.
    func escalationPlan(
        of user: User, current escalation: (deadline: Date, step: Int)?, tx: StoreTransaction
    ) async throws -> (deadline: Date, step: Int, nextActionAt: Date?) {
        let deadline = Deadline.of(user)
        let current: (deadline: Date, step: Int)? =
            if let escalation { escalation } else { try await tx.people.escalationState(user.id).map { ($0.deadline, $0.step) } }
        var step = current?.step ?? 0
        let reset = current?.deadline != deadline
        if reset {
            step =
                EscalationPlan.steps(for: user).prefix {
                    if case .reminder = $0.kind { return $0.at < now }
                    return false
                }.count
        }
        return (deadline, step, EscalationPlan.nextActionAt(for: user, stepsDone: step, now: now))
    }

    /// Streams a person's new status to them and to everyone watching over them.
    /// `openIncidents` and `responders`, when the caller already read them in this transaction.
    @discardableResult
    func publishStatus(
        of user: User, openIncidents: [Incident]? = nil, responders: [UserID]? = nil, tx: StoreTransaction,
        events: PendingEvents
    ) async throws -> CheckInStatus {
        let incidents = if let openIncidents { openIncidents } else { try await tx.incidents.openIncidents(of: user.id) }
        let status = try await statusWithHelp(of: user, openIncidents: incidents, tx: tx)
        let watchers = if let responders { responders } else { try await tx.links.responderIDs(of: user.id) }
        events.add(.status(status), to: [user.id] + watchers)
        return status
    }

    /// `publishStatus` for many people, with their responders already read (people missing
    /// from `responders` have none): one read of everyone's open incidents.
    func publishStatus(of users: [User], responders: [UserID: [UserID]], tx: StoreTransaction, events: PendingEvents) async throws {
        guard !users.isEmpty else { return }
        let open = Dictionary(grouping: try await tx.incidents.openIncidents(of: users.map(\.id)), by: \.userID)
        // Every open incident's responders and deliveries are read at once for the batch.
        var statuses = users.map { StatusRule.status(of: $0, openIncidents: open[$0.id] ?? [], now: now) }
        try await fillHelp(&statuses, tx: tx)
        for (user, status) in zip(users, statuses) {
            events.add(.status(status), to: [user.id] + (responders[user.id] ?? []))
        }
    }
}
