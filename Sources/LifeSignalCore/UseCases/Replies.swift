import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// LifeSignal without a smartphone: texts and keypresses from a basic phone or a landline.
///
/// A text to LifeSignal's number is read as a ``TextCommand``:
/// - `OK` (`YES`, `1`…) checks its sender in; the reply says until when.
/// - `SOS` asks for a second `SOS` within ``sosConfirmWindow``; the second raises the alert.
/// - `SAFE` from someone whose SOS is open asks for a second `SAFE` within the same window;
///   the second ends the alert (an `OK` asks for the `SAFE` too). Without an SOS it is `OK`.
/// - `1`/`ON IT` from a responder says "I'm on it" to the one alert they have not answered;
///   with several, the reply lists them ("Reply 1 for Alice, 2 for Carl") and a number within
///   ``choiceWindow`` picks one. A `1` checks its sender in only when no alert waits for them.
/// - `STOP`/`START` follow carrier rules: nothing is texted to the number in between. Other
///   channels still reach its owner, and an alert calls the number instead of texting it.
///
/// The number is the sender's identity (the provider's signature proves the text came through
/// it): whoever signs in with it, else whoever proved it as a text or call channel.
public struct Replies: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

extension Replies {
    /// How long a first `SOS` waits for the confirming second one.
    public static let sosConfirmWindow: TimeInterval = 5 * 60

    /// How long a list of alerts sent by text can be answered by number.
    public static let choiceWindow: TimeInterval = 15 * 60

    /// How often a number that sends something LifeSignal does not understand (or is not on
    /// LifeSignal) is sent the help text: an autoresponder texting back must not start a loop.
    public static let helpInterval: TimeInterval = 3600

    /// Handles a text someone sent to LifeSignal's number; returns the text to send back, or nil
    /// to send nothing.
    ///
    /// Who sent it is the number: the person who signs in with it, else the one person who
    /// proved it as a text or call channel. A number several people proved, and nobody signs in
    /// with, acts for nobody (only STOP/START apply to it).
    public func receiveText(from address: String, body: String, messageID: String) async throws -> String? {
        let command = TextCommand(text: body)
        return try await core.write { tx, events in
            let now = core.now
            let numberOwners = try await tx.channels.owners(ofNumber: address)
            let owners = ([numberOwners.signsIn].compactMap { $0 } + numberOwners.proved).reduce(into: [UserID]()) {
                if !$0.contains($1) { $0.append($1) }
            }
            // One text at a time per person (PostgreSQL): two SOS texts sent in a panic are
            // the request and its confirmation, not two requests.
            if let owner = owners.first { _ = try await tx.people.lockEscalations([owner]) }
            var state = try await tx.channels.phoneNumberState(address)
            // Replies are in the sender's language: the number's one owner's (English for a
            // number nobody, or several people, use).
            let w = Reader(try await owners.count == 1 ? tx.people.user(owners[0]) : nil)
            switch command {
            case .stop:
                if state.optedOutAt == nil {
                    state.optedOutAt = now
                    for owner in owners {
                        try await tx.timeline.append(
                            owner, at: now, summary: "Texts to \(address) switched off (STOP)",
                            TextsStopped(address: address, message: messageID))
                    }
                }
                state.sosPendingUntil = nil
                state.sosMessage = nil
                state.safePendingUntil = nil
                state.safeMessage = nil
                state.choiceUntil = nil
                state.choices = []
                try await tx.channels.setPhoneNumberState(address, state)
                return w("reply.stopped")
            case .start:
                if state.optedOutAt != nil {
                    state.optedOutAt = nil
                    try await tx.channels.setPhoneNumberState(address, state)
                    for owner in owners {
                        try await tx.timeline.append(
                            owner, at: now, summary: "Texts to \(address) switched back on (START)",
                            TextsStarted(address: address, message: messageID))
                    }
                }
                return w("reply.started", ["help": w("reply.help")])
            default:
                break
            }
            // "YES" is a carrier opt-in word for a number that said STOP.
            if state.optedOutAt != nil, TextCommand.words(body) == ["YES"] {
                state.optedOutAt = nil
                try await tx.channels.setPhoneNumberState(address, state)
                return w("reply.started", ["help": w("reply.help")])
            }
            let owner = numberOwners.signsIn ?? (numberOwners.proved.count == 1 ? numberOwners.proved.first : nil)
            guard let ownerID = owner, let user = try await tx.people.user(ownerID) else {
                let reply =
                    owners.isEmpty
                    ? w("reply.unknownNumber", ["link": core.configuration.publicBaseURL])
                    : w("reply.sharedNumber")
                return try await helpOnce(reply, address: address, state: state, tx: tx)
            }

            switch command {
            case .okay:
                return try await checkInByText(user, messageID: messageID, address: address, state: state, tx: tx, events: events)
            case .callMe:
                return try await checkInByText(
                    user, messageID: messageID, address: address, state: state, callMe: true, tx: tx, events: events)
            case .safe:
                return try await safeByText(user, messageID: messageID, address: address, state: state, tx: tx, events: events)
            case .number(let number):
                if let until = state.choiceUntil, until > now, !state.choices.isEmpty {
                    // The digit picks from the list that was sent, not from today's alerts.
                    return try await pickFromList(
                        number, responder: user, address: address, state: state, tx: tx, events: events)
                }
                let waiting = try await core.alertsWaiting(for: user, tx: tx)
                if waiting.isEmpty {
                    return number == 1
                        ? try await checkInByText(user, messageID: messageID, address: address, state: state, tx: tx, events: events)
                        : try await helpOnce(w("reply.help"), address: address, state: state, tx: tx)
                }
                if waiting.count == 1, number == 1 {
                    return try await onItByText(waiting[0], responder: user, address: address, state: state, tx: tx, events: events)
                }
                return try await listAlerts(waiting, address: address, state: state, tx: tx, reader: Reader(user))
            case .onIt:
                let waiting = try await core.alertsWaiting(for: user, tx: tx)
                if waiting.isEmpty { return w("reply.nobodyNeedsHelp") }
                if waiting.count == 1 {
                    return try await onItByText(waiting[0], responder: user, address: address, state: state, tx: tx, events: events)
                }
                return try await listAlerts(waiting, address: address, state: state, tx: tx, reader: Reader(user))
            case .sos:
                let responders = try await tx.links.responders(of: user.id)
                if responders.isEmpty { return w("reply.sos.nobody") }
                let names = w.words.list(responders.map { ServiceCore.displayName(of: $0) })
                // A second SOS text within the window confirms; the same text delivered twice
                // (or replayed) is not its own confirmation.
                let step = TextConfirmation.step(
                    pendingUntil: state.sosPendingUntil, askedBy: state.sosMessage, messageID: messageID, now: now,
                    window: Self.sosConfirmWindow)
                guard step == .confirmed else {
                    if case .opened(let until) = step {
                        state.sosPendingUntil = until
                        state.sosMessage = messageID
                        try await tx.channels.setPhoneNumberState(address, state)
                    }
                    return w("reply.sos.confirm", ["names": names])
                }
                state.sosPendingUntil = nil
                state.sosMessage = nil
                try await tx.channels.setPhoneNumberState(address, state)
                _ = try await core.raise(user, tx: tx, events: events)
                return w("reply.sos.going", ["names": names])
            case .details:
                return try await core.sealedDetailsByText(for: user, tx: tx, events: events)
            case .back:
                return try await backByText(user, tx: tx, events: events)
            case .later(let minutes):
                return try await laterByText(user, minutes: minutes, tx: tx, events: events)
            case .help, .unknown, .stop, .start:
                return try await helpOnce(w("reply.help"), address: address, state: state, tx: tx)
            }
        }
    }

    /// `reply`, unless this number was sent the help text within ``helpInterval``: then nothing.
    private func helpOnce(_ reply: String, address: String, state: PhoneNumberState, tx: StoreTransaction) async throws -> String? {
        if let sent = state.helpSentAt, core.now.timeIntervalSince(sent) < Self.helpInterval { return nil }
        var state = state
        state.helpSentAt = core.now
        try await tx.channels.setPhoneNumberState(address, state)
        return reply
    }

    /// A digit answering the numbered list sent to this number: the alert it named, if it is
    /// still waiting for this responder; else the list as it is now.
    private func pickFromList(
        _ number: Int, responder: User, address: String, state: PhoneNumberState, tx: StoreTransaction, events: PendingEvents
    ) async throws -> String {
        let waiting = try await core.alertsWaiting(for: responder, tx: tx)
        guard state.choices.indices.contains(number - 1) else {
            return try await listAlerts(
                waiting, address: address, state: state, tx: tx, note: Reader(responder)("reply.list.noSuch", ["number": String(number)]),
                reader: Reader(responder))
        }
        let chosen = state.choices[number - 1]
        if let alert = waiting.first(where: { $0.incident.id == chosen }) {
            return try await onItByText(alert, responder: responder, address: address, state: state, tx: tx, events: events)
        }
        let w = Reader(responder)
        let ended = w("reply.list.ended")
        if waiting.isEmpty {
            var state = state
            state.choiceUntil = nil
            state.choices = []
            try await tx.channels.setPhoneNumberState(address, state)
            return ended + " " + w("reply.list.nobodyElse")
        }
        return try await listAlerts(waiting, address: address, state: state, tx: tx, note: ended, reader: w)
    }

    /// What can be texted, in English (the help text in a person's language is
    /// `reply.help` in the catalogue).
    static var textHelp: String { Words.english("reply.help") }

    /// "OK" by text: a check-in, and a reply that says until when and what it changed. With her
    /// SOS open it does not end it (an SOS ends only on purpose), but a `SAFE` within
    /// ``sosConfirmWindow`` then does: "Reply OK if you're safe" leads somewhere.
    /// `CALL ME` is the same check-in asking for a call today; the reply says who was asked.
    private func checkInByText(
        _ user: User, messageID: String, address: String, state: PhoneNumberState, callMe: Bool = false, tx: StoreTransaction,
        events: PendingEvents
    ) async throws -> String {
        let w = Reader(user)
        if user.watchOnly { return w("reply.watchOnly", ["help": w("reply.help")]) }
        let hadMissed = try await tx.incidents.openIncidents(of: user.id).contains { $0.kind == .missedCheckIn }
        let result = try await core.recordCheckIn(
            userID: user.id, id: ServiceCore.checkInID(forMessage: messageID), clientAt: nil, source: .smsReply,
            recordedBy: nil, callMe: callMe, tx: tx, events: events)
        let until = w.time(result.status.deadline, now: core.now)
        var reply =
            user.firstName.isEmpty ? w("reply.ok", ["until": until]) : w("reply.ok.named", ["name": user.firstName, "until": until])
        let responders = try await tx.links.responders(of: user.id)
        if result.status.openIncident?.kind == .manualAlert {
            var state = state
            state.safePendingUntil = core.now.addingTimeInterval(Self.sosConfirmWindow)
            state.safeMessage = messageID
            try await tx.channels.setPhoneNumberState(address, state)
            let names = w.words.list(responders.map { ServiceCore.displayName(of: $0) })
            reply += " " + (names.isEmpty ? w("reply.ok.sosStill") : w("reply.ok.sosStillAlerting", ["names": names]))
            if let callRequest = result.callRequest { reply += " " + callRequest.sentence(w.words) }
        } else if let callRequest = result.callRequest {
            // With nobody to ask, this sentence is the "nobody watches over you" one.
            reply += " " + callRequest.sentence(w.words)
        } else if responders.isEmpty {
            reply += " " + w("reply.ok.nobody", ["link": "\(core.configuration.publicBaseURL)/contacts"])
        } else if hadMissed && !result.duplicate {
            reply += " " + w("reply.ok.telling", ["names": w.words.list(responders.map { ServiceCore.displayName(of: $0) })])
        }
        return reply
    }

    /// The plan a text about plans means: the overdue one due first, else the running one due first.
    func textedPlan(of user: User, tx: StoreTransaction) async throws -> Plan? {
        let running = try await tx.plans.runningPlans(of: user.id)
        return running.first { $0.state == .overdue } ?? running.first
    }

    /// `BACK` by text: ends her plan (the overdue one, else the next due) and checks her in.
    private func backByText(_ user: User, tx: StoreTransaction, events: PendingEvents) async throws -> String {
        let w = Reader(user)
        guard let plan = try await textedPlan(of: user, tx: tx) else { return w("reply.plan.none") }
        _ = try await core.endPlan(plan.id, of: user.id, state: .done, source: .smsReply, tx: tx, events: events)
        return w("reply.plan.back", ["title": plan.title])
    }

    /// `LATER 1H` by text: more time for her plan (the overdue one, else the next due).
    private func laterByText(_ user: User, minutes: Int?, tx: StoreTransaction, events: PendingEvents) async throws -> String {
        let w = Reader(user)
        guard let plan = try await textedPlan(of: user, tx: tx) else {
            // No plan running: "give me more time" for her next deadline.
            guard let minutes else { return w("reply.addTime.invalid") }
            do {
                let status = try await core.addTime(to: user.id, minutes: minutes, tx: tx, events: events)
                return w("reply.addTime", ["when": w.time(status.deadline, now: core.now)])
            } catch let error as ServiceError {
                return error.words.map { w($0.key, $0.arguments) } ?? error.message
            }
        }
        guard let minutes, (try? PlanRule.extended(plan, byMinutes: minutes, now: core.now)) != nil else {
            return w("reply.plan.later.invalid")
        }
        let extended = try await core.extendPlan(plan.id, of: user.id, minutes: minutes, until: nil, tx: tx, events: events)
        return w("reply.plan.later", ["title": plan.title, "when": w.time(extended.dueAt, now: core.now)])
    }

    /// "SAFE" by text. With her SOS open, the first asks for a second within
    /// ``sosConfirmWindow`` (as raising needs a second SOS); the second ends the alert, tells
    /// everyone who was alerted that she is safe, and checks her in. Without an SOS it is "OK".
    private func safeByText(
        _ user: User, messageID: String, address: String, state: PhoneNumberState, tx: StoreTransaction, events: PendingEvents
    ) async throws -> String {
        guard let open = try await tx.incidents.openIncidents(of: user.id).first(where: { $0.kind == .manualAlert }) else {
            return try await checkInByText(user, messageID: messageID, address: address, state: state, tx: tx, events: events)
        }
        let now = core.now
        var state = state
        let w = Reader(user)
        let told = w.words.list(try await tx.incidents.recipients(open.id).asyncMap { try await core.displayName($0, tx: tx) })
        // The same text delivered twice (or replayed) is not its own confirmation.
        let step = TextConfirmation.step(
            pendingUntil: state.safePendingUntil, askedBy: state.safeMessage, messageID: messageID, now: now,
            window: Self.sosConfirmWindow)
        guard step == .confirmed else {
            if case .opened(let until) = step {
                state.safePendingUntil = until
                state.safeMessage = messageID
                try await tx.channels.setPhoneNumberState(address, state)
            }
            return told.isEmpty ? w("reply.safe.confirm") : w("reply.safe.confirmTell", ["names": told])
        }
        state.safePendingUntil = nil
        state.safeMessage = nil
        try await tx.channels.setPhoneNumberState(address, state)
        try await core.resolve(open, resolution: .cleared, by: user.id, user: user, tx: tx, events: events)
        try await tx.timeline.append(
            user.id, at: now, summary: "Emergency alert ended by text (SAFE twice)",
            AlertEndedByText(incident: open.id, message: messageID))
        var reply = w("reply.safe.ended")
        if !told.isEmpty { reply += " " + w("reply.safe.telling", ["names": told]) }
        if user.watchOnly {
            _ = try await core.publishStatus(of: user, tx: tx, events: events)
        } else {
            let result = try await core.recordCheckIn(
                userID: user.id, id: ServiceCore.checkInID(forMessage: messageID), clientAt: nil, source: .smsReply,
                recordedBy: nil, tx: tx, events: events)
            reply += " " + w("reply.safe.checkedIn", ["until": w.time(result.status.deadline, now: now)])
        }
        return reply
    }

    private func onItByText(
        _ waiting: (incident: Incident, user: User), responder: User, address: String, state: PhoneNumberState,
        tx: StoreTransaction, events: PendingEvents
    ) async throws -> String {
        var state = state
        if state.choiceUntil != nil || !state.choices.isEmpty {
            state.choiceUntil = nil
            state.choices = []
            try await tx.channels.setPhoneNumberState(address, state)
        }
        _ = try await core.claim(waiting.incident, of: waiting.user, by: responder.id, tx: tx, events: events)
        let name = ServiceCore.displayName(of: waiting.user)
        let w = Reader(responder)
        var reply = w("reply.onIt", ["name": name, "phone": waiting.user.phone])
        if !waiting.user.emergencyNote.isEmpty { reply += " " + w("reply.onIt.note", ["note": waiting.user.emergencyNote]) }
        return reply
    }

    private func listAlerts(
        _ waiting: [(incident: Incident, user: User)], address: String, state: PhoneNumberState, tx: StoreTransaction,
        note: String? = nil, reader: Reader
    ) async throws -> String {
        var state = state
        let listed = Array(waiting.prefix(9))
        state.choiceUntil = core.now.addingTimeInterval(Self.choiceWindow)
        state.choices = listed.map(\.incident.id)
        try await tx.channels.setPhoneNumberState(address, state)
        let choices = listed.enumerated().map {
            reader("reply.list.choice", ["number": String($0.offset + 1), "name": ServiceCore.displayName(of: $0.element.user)])
        }
        let list = reader("reply.list", ["count": String(waiting.count), "choices": choices.joined(separator: ", ")])
        return note.map { "\($0) \(list)" } ?? list
    }
}

extension ServiceCore {
    /// The same text delivered twice by the provider is one check-in.
    static func checkInID(forMessage messageID: String) -> CheckInID {
        CheckInID(UUID(nameBasedOn: "sms:" + messageID))
    }

    /// Open alerts about people `responder` watches over that they have not said "I'm on it" to,
    /// oldest first (the order of the numbered list).
    func alertsWaiting(for responder: User, tx: StoreTransaction) async throws -> [(incident: Incident, user: User)] {
        let watched = try await tx.links.all(of: responder.id).filter { $0.roles.isDependent }.map(\.contactID)
        guard !watched.isEmpty else { return [] }
        let open = try await tx.incidents.openIncidents(of: watched).filter { $0.acknowledgedBy != responder.id }
        let people = try await tx.people.users(open.map(\.userID))
        return open.sorted { ($0.openedAt, $0.id.description) < ($1.openedAt, $1.id.description) }
            .compactMap { incident in people[incident.userID].map { (incident, $0) } }
    }
}

extension UUID {
    /// A UUID derived from a name (from its SHA-256, marked as a name-based UUID), so the same
    /// provider message always yields the same id.
    init(nameBasedOn name: String) {
        let hex = Array(SHA256Hex.of(name).utf8)
        var b = (0..<16).map { UInt8(String(decoding: hex[$0 * 2..<$0 * 2 + 2], as: UTF8.self), radix: 16)! }
        b[6] = b[6] & 0x0F | 0x50  // version 5: name-based
        b[8] = b[8] & 0x3F | 0x80  // RFC 4122 variant
        self = UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
