import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// "Set up daily calls for Mum": a signed-in person gives a name, a number (a landline is
/// fine), a zone and a time. An account is made for her, watching nobody and watched by
/// nobody, and nothing runs until she says yes on a consent call:
///
/// "Bob Becker has asked LifeSignal to call you every day at 09:00 and to tell him if you
/// don't answer. Press 1 to agree, press 2 to say no."
///
/// 1 links them (Bob her responder) and starts her daily calls; 2, or no answer to three
/// calls 15 minutes apart, ends it: her account is erased and Bob is told. Consent calls never
/// ring at night where she lives. She can stop the calls any time (key 8 on a daily call).
///
/// Abuse: it rings a number nobody has proved, so each asker may set up few a day, a number
/// that said no (or never answered) cannot be asked again by the same person for 30 days, a
/// number with an account is refused (ask her for her contact code instead), and only the
/// asker sees or cancels a request.
public struct DailyCallSetups: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }

    /// How long after a no, or no answer, the same person may not ask for the same number.
    public static let askAgainAfter: TimeInterval = 30 * 86_400

    static let notFound = ServiceError(.notFound, code: .dailyCallSetupNotFound, Said("error.dailyCallSetupNotFound"))

    public func setUp(
        _ caller: Caller, firstName: String, lastName: String, phone rawPhone: String, time: String, timeZone: String,
        language: String? = nil
    ) async throws -> DailyCallSetup {
        guard !firstName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ServiceError.invalid(field: "firstName", Said("error.dailyCallSetup.name"))
        }
        let first = try validated { try Validation.name(firstName, field: "firstName") }
        let last =
            lastName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            ? "" : try validated { try Validation.name(lastName, field: "lastName") }
        let phone = try validated { try Validation.phone(rawPhone) }
        if let refusal = core.configuration.codeDestinations.refusal(for: phone) {
            throw ServiceError(.invalid, code: .phoneNotServed, refusal, field: "phone")
        }
        let parts = time.split(separator: ":").compactMap { Int($0) }
        guard time.count == 5, parts.count == 2 else {
            throw ServiceError.invalid(field: "time", Said("validation.dailyTime"))
        }
        let call = DailyCall(hour: parts[0], minute: parts[1], timeZone: timeZone)
        try validated { try Validation.schedule(.dailyCall(call), reminders: .none) }
        let tag = try language.flatMap { $0.isEmpty ? nil : $0 }.map { tag in
            guard let parsed = Language(tag) else { throw ServiceError.invalid(field: "language", Said("error.language")) }
            return parsed.tag
        }
        let now = core.now
        return try await core.write { tx, events in
            guard let asker = try await tx.people.user(caller.user.id) else { throw ServiceError.unauthorized }
            guard phone != asker.phone, try await tx.people.user(phone: phone) == nil else {
                throw ServiceError(.conflict, code: .phoneTaken, Said("error.dailyCallSetup.hasAccount"), field: "phone")
            }
            let earlier = try await tx.dailyCalls.setups(
                phone: phone, requestedBy: asker.id, since: now.addingTimeInterval(-Self.askAgainAfter))
            if earlier.contains(where: { $0.status == .pending }) {
                throw ServiceError(.conflict, code: .conflict, Said("error.dailyCallSetup.pending"), field: "phone")
            }
            if earlier.contains(where: { $0.status == .declined || $0.status == .unanswered }) {
                throw ServiceError(.rateLimited, code: .requestDeclinedRecently, Said("error.dailyCallSetup.declined"))
            }
            try await core.enforceLimit(
                core.configuration.limits.dailyCallSetups, refusal: .tooManyDailyCallSetups, sender: asker.id, recipient: nil,
                message: Said("error.tooManyDailyCallSetups"), tx: tx)
            // Her account: on the calls' rhythm, but expecting nothing until she agrees.
            let person = User(
                id: core.newID(), phone: phone, firstName: first, lastName: last, schedule: .dailyCall(call), createdAt: now,
                contactCode: core.newContactCode(), isOnboarded: true, timeZone: timeZone, watchOnly: true,
                language: tag ?? asker.language)
            try await tx.people.insert(person, deadline: Deadline.of(person), nextActionAt: nil)
            let askerName = ServiceCore.displayName(of: asker)
            try await tx.timeline.append(
                person.id, at: now, summary: "Account made by \(askerName) for daily calls; waiting for her yes",
                DailyCallSetupMade(setup: nil, by: asker.id))
            // The first consent call rings now, or at her call time when it is night where she lives.
            let firstCall = DailyCallRule.isNightCall(now: now, call) ? DailyCallRule.nextCall(after: now, call) : now
            let setup = DailyCallSetup(
                id: core.newID(), personID: person.id, requestedBy: asker.id, name: ServiceCore.displayName(of: person), phone: phone,
                time: call.time, timeZone: timeZone, status: .pending, tries: 0, nextCallAt: firstCall, createdAt: now)
            try await tx.dailyCalls.insertSetup(setup)
            try await tx.timeline.append(
                asker.id, at: now, summary: "Asked LifeSignal to call \(setup.name) every day at \(setup.time)",
                DailyCallSetupMade(setup: setup.id, by: asker.id))
            return setup
        }
    }

    /// The requests the caller made, newest first.
    public func list(_ caller: Caller) async throws -> [DailyCallSetup] {
        try await core.read { try await $0.dailyCalls.setups(requestedBy: caller.user.id) }
    }

    /// Takes back a request she has not answered: no more consent calls, her account erased.
    /// An answered request is returned as it is (she said yes: she stops the calls herself).
    public func cancel(_ caller: Caller, id: DailyCallSetupID) async throws -> DailyCallSetup {
        try await core.write { tx, _ in
            guard var setup = try await tx.dailyCalls.setup(id), setup.requestedBy == caller.user.id else { throw Self.notFound }
            guard setup.status == .pending else { return setup }
            let tries = setup.tries
            setup.status = .cancelled
            setup.nextCallAt = nil
            let person = setup.personID
            setup.personID = nil
            guard try await tx.dailyCalls.updateSetup(setup, expectedTries: tries) else { throw Self.notFound }
            if let person, let user = try await tx.people.user(person) { try await core.eraseMadeAccount(user, tx: tx) }
            try await tx.timeline.append(
                caller.user.id, at: core.now, summary: "Took back the daily calls for \(setup.name)",
                DailyCallSetupEnded(setup: setup.id, status: setup.status.rawValue))
            return setup
        }
    }
}

extension DailyCallSetups {
    /// A responder marks someone on a daily call as away until a date (hospital, holiday): no
    /// calls and no alerts until then. She is told by a short call and keeps the calls on with
    /// key 1; her other responders are told who did it. `nil` ends it now. Only her responders,
    /// only for a daily call (an app user pauses herself).
    public func setAway(_ caller: Caller, person personID: UserID, until: Date?) async throws -> CheckInStatus {
        let now = core.now
        if let until { try validated { try Validation.pause(from: now, until: until, now: now) } }
        return try await core.write { tx, events in
            guard try await tx.links.link(userID: caller.user.id, contactID: personID)?.roles.isDependent == true,
                let locked = try await tx.people.lockEscalations([personID]).first, let setter = try await tx.people.user(caller.user.id)
            else { throw ServiceError.userNotFound }
            var person = locked.user
            guard let call = person.schedule.dailyCall, !person.watchOnly else {
                throw ServiceError(.conflict, code: .conflict, Said("error.away.notDailyCall"))
            }
            // Refused during an SOS (only her "I'm safe" ends it); an open missed check-in stays
            // open: it is her responders' to handle.
            person = try await core.pauseNow(
                locked, until: until, openIncident: .keepOpen, setter: setter, tell: false, tx: tx, events: events)
            let by = ServiceCore.displayName(of: setter)
            let name = ServiceCore.displayName(of: person)
            let zone = HumanTime.zone(call.timeZone)
            try await tx.timeline.append(
                person.id, at: now,
                summary: until.map { "\(by) marked her away until \(HumanTime.dated($0, in: zone))" } ?? "\(by) ended her time away",
                AwaySet(by: caller.user.id, until: until))
            var drafts: [NotificationDraft] = []
            if let until {
                let firstName = person.firstName
                let line = core.callLine(to: call.number ?? person.phone, of: person.id, purpose: "away")
                drafts.append(
                    NotificationDraft(
                        recipient: person.id, kind: .dailyCallAway, subject: person.id, stepKey: .away(person: person.id, at: now),
                        knownRecipient: person, onlyTarget: line
                    ) { w in
                        (w("away.call.title", ["name": firstName]), w("away.call.body", ["by": by, "when": w.time(until, now: now)]))
                    })
            }
            for responder in try await tx.links.responders(of: person.id) where responder.id != caller.user.id {
                drafts.append(
                    NotificationDraft(recipient: responder.id, kind: .pauseChanged, subject: person.id, knownRecipient: responder) { w in
                        guard let until else {
                            return (w("pause.resumed.title", ["name": name]), w("pause.resumed.body", ["name": name]))
                        }
                        return (
                            w("pause.paused.title", ["name": name]),
                            w("away.responders.body", ["by": by, "name": name, "when": w.time(until, subject: zone, now: now)])
                        )
                    })
            }
            try await core.notify(drafts, tx: tx, events: events)
            return try await core.publishStatus(of: person, tx: tx, events: events)
        }
    }
}

extension ServiceCore {
    /// Key 1 on the call telling her she was marked away: the calls stay on (the time away
    /// ends now). Any other key leaves it as it is.
    func awayKeypress(
        _ digit: String, person: User, w: Reader, tx: StoreTransaction, events: PendingEvents
    ) async throws
        -> KeypressAnswer
    {
        let language = w.words.rendered
        guard digit == "1" else { return KeypressAnswer(text: w("away.reply.away"), language: language) }
        if let locked = try await tx.people.lockEscalations([person.id]).first, let away = PauseRule.current(at: now, locked.user.pauses) {
            let person = try await endPause(away, of: locked, setter: locked.user, tell: false, tx: tx, events: events)
            try await tx.timeline.append(person.id, at: now, summary: "Kept her daily calls on with key 1", Resumed())
            let name = Self.displayName(of: person)
            try await notify(
                try await tx.links.responders(of: person.id).map { responder in
                    NotificationDraft(recipient: responder.id, kind: .pauseChanged, subject: person.id, knownRecipient: responder) { w in
                        (w("pause.resumed.title", ["name": name]), w("away.kept.body", ["name": name]))
                    }
                }, tx: tx, events: events)
            _ = try await publishStatus(of: person, tx: tx, events: events)
        }
        return KeypressAnswer(text: w("away.reply.kept"), language: language)
    }

    /// An account made for daily calls that she never agreed to: gone, with what it holds.
    func eraseMadeAccount(_ user: User, tx: StoreTransaction) async throws {
        try await eraseFromOthersNotifications(user, tx: tx)
        try await tx.people.delete(user.id)
    }

    /// Consent calls due now: each pending request rings her (at most three times, 15 minutes
    /// apart, never at night where she lives); after the last one unanswered the request ends
    /// and the asker is told. Returns how many steps were taken.
    func takeConsentSteps(tx: StoreTransaction, events: PendingEvents) async throws -> Int {
        var taken = 0
        for setup in try await tx.dailyCalls.dueSetups(now: now, limit: 100) {
            var next = setup
            let tries = setup.tries
            guard let personID = setup.personID, let person = try await tx.people.user(personID), let call = person.schedule.dailyCall
            else {
                next.status = .unanswered
                next.nextCallAt = nil
                _ = try await tx.dailyCalls.updateSetup(next, expectedTries: tries)
                continue
            }
            if tries >= DailyCallSetup.consentTries {
                next.status = .unanswered
                next.nextCallAt = nil
                next.personID = nil
                guard try await tx.dailyCalls.updateSetup(next, expectedTries: tries) else { continue }
                try await eraseMadeAccount(person, tx: tx)
                try await tellAsker(next, tx: tx, events: events)
                taken += 1
                continue
            }
            if DailyCallRule.isNightCall(now: now, call) {
                next.nextCallAt = DailyCallRule.nextCall(after: now, call)
                _ = try await tx.dailyCalls.updateSetup(next, expectedTries: tries)
                continue
            }
            next.tries += 1
            next.nextCallAt = now.addingTimeInterval(TimeInterval(DailyCallSetup.consentRetryMinutes * 60))
            guard try await tx.dailyCalls.updateSetup(next, expectedTries: tries) else { continue }
            let askerName = try await displayName(setup.requestedBy, tx: tx)
            let line = callLine(to: person.phone, of: person.id, purpose: "consent")
            try await notify(
                NotificationDraft(
                    recipient: person.id, kind: .dailyCallConsent, subject: person.id,
                    stepKey: .dailyCallConsent(setup: setup.id, attempt: next.tries), knownRecipient: person, onlyTarget: line,
                    timelineSummary: "Consent call \(next.tries) of \(DailyCallSetup.consentTries) to \(person.phone)"
                ) { w in
                    let greeting = Self.greetingKey(hour: call.hour, named: !person.firstName.isEmpty)
                    return (
                        w(greeting, ["name": person.firstName]),
                        w("dailyCall.consent.ask", ["asker": askerName, "time": call.time])
                    )
                }, tx: tx, events: events)
            taken += 1
        }
        return taken
    }

    /// Her answer to a consent call: 1 agrees (the asker becomes her responder and her daily
    /// calls start), 2 says no (her account is erased); anything else asks again.
    func consentKeypress(
        _ digit: String, person: User, w: Reader, tx: StoreTransaction, events: PendingEvents
    ) async throws
        -> KeypressAnswer
    {
        let language = w.words.rendered
        guard var setup = try await tx.dailyCalls.pendingSetup(person: person.id), let call = person.schedule.dailyCall else {
            return KeypressAnswer(text: w("call.reply.callEnded"), language: language)
        }
        let askerName = try await displayName(setup.requestedBy, tx: tx)
        let tries = setup.tries
        switch digit {
        case "1":
            setup.status = .agreed
            setup.answeredAt = now
            setup.nextCallAt = nil
            guard try await tx.dailyCalls.updateSetup(setup, expectedTries: tries) else {
                return KeypressAnswer(text: w("call.reply.callEnded"), language: language)
            }
            var agreed = person
            Self.leaveWatchOnly(&agreed, now: now)
            try await save(agreed, tx: tx)
            if try await tx.links.link(userID: setup.requestedBy, contactID: person.id) == nil {
                try await tx.links.insert(LinkRecord(userID: setup.requestedBy, contactID: person.id, roles: .dependent, addedAt: now))
            }
            try await tx.timeline.append(
                person.id, at: now, summary: "Agreed to daily calls at \(call.time); \(askerName) watches over her",
                DailyCallSetupEnded(setup: setup.id, status: setup.status.rawValue))
            try await tellAsker(setup, tx: tx, events: events)
            events.add(.contactsChanged, to: [person.id, setup.requestedBy])
            return KeypressAnswer(text: w("dailyCall.consent.agreed", ["time": call.time]), language: language)
        case "2":
            setup.status = .declined
            setup.answeredAt = now
            setup.nextCallAt = nil
            setup.personID = nil
            guard try await tx.dailyCalls.updateSetup(setup, expectedTries: tries) else {
                return KeypressAnswer(text: w("call.reply.callEnded"), language: language)
            }
            try await eraseMadeAccount(person, tx: tx)
            try await tellAsker(setup, tx: tx, events: events)
            return KeypressAnswer(text: w("dailyCall.consent.declined"), language: language)
        default:
            return KeypressAnswer(
                text: "", language: language, ask: w("dailyCall.consent.ask", ["asker": askerName, "time": call.time]))
        }
    }

    /// The asker hears what became of the request: agreed, declined, or never answered.
    private func tellAsker(_ setup: DailyCallSetup, tx: StoreTransaction, events: PendingEvents) async throws {
        let (name, time, status) = (setup.name, setup.time, setup.status)
        try await tx.timeline.append(
            setup.requestedBy, at: now, summary: "Daily calls for \(name): \(status.rawValue)",
            DailyCallSetupEnded(setup: setup.id, status: status.rawValue))
        try await notify(
            NotificationDraft(
                recipient: setup.requestedBy, kind: .dailyCallSetup, subject: setup.personID,
                stepKey: .dailyCallSetupAnswered(setup: setup.id)
            ) { w in
                (
                    w("dailyCall.setup.\(status.rawValue).title", ["name": name]),
                    w("dailyCall.setup.\(status.rawValue).body", ["name": name, "time": time])
                )
            }, tx: tx, events: events)
    }
}
