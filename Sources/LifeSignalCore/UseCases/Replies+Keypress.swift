import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// Keys pressed on calls LifeSignal placed, and calls made to its own number.
extension Replies {
    /// A key pressed during a call that asked for one (`<Gather>`); returns what the call says
    /// next. Whose call it was decides what a key means:
    /// - a responder's alert call: 1 says "I'm on it";
    /// - a reminder or last call: 1 checks the called person in;
    /// - the person's own "Bob has been alerted" call: 1 says she is safe (a missed check-in
    ///   ends; an SOS stays on and she is told how to end it), 9 keeps her alert on.
    public func receiveKeypress(callID: String, digits: String) async throws -> String {
        try await keypressReply(callID: callID, digits: digits).text
    }

    /// ``receiveKeypress(callID:digits:)`` with the language its words are in: the called
    /// person's, so the reply is read by the voice that read the call.
    public func keypressReply(
        callID: String, digits: String, step: KeypressStep? = nil, from caller: String? = nil
    ) async throws -> KeypressAnswer {
        try await core.write { tx, events in
            // A call she placed to LifeSignal's number: she is who the number is (see
            // ``receiveCall(from:callID:)``), and the menu is the daily call's.
            if let step, step.isCallIn {
                guard let caller, let person = try await owner(ofNumber: caller, tx: tx), !person.watchOnly else {
                    return KeypressAnswer(text: Words.english("call.reply.callEnded"), language: .english)
                }
                if step == .callInPin {
                    return try await pinKeypress(digits, callID: callID, person: person, w: Reader(person), tx: tx)
                }
                // Her menu only after her PIN on this very call (the provider's signature already
                // says the step is one we asked; this says the PIN was given before it).
                if person.hasCallInPin, try await !pinGiven(on: callID, tx: tx) {
                    return KeypressAnswer(text: Words.english("call.reply.callEnded"), language: .english)
                }
                return try await dailyCallKeypress(
                    digits.trimmingCharacters(in: .whitespaces), step: step, callID: callID, person: person, w: Reader(person),
                    tx: tx, events: events)
            }
            guard let delivery = try await tx.deliveries.delivery(providerID: callID),
                let notification = try await tx.deliveries.deliveriesToRecord([delivery.id])[delivery.id]?.notification,
                let person = try await tx.people.user(notification.recipientID)
            else { return KeypressAnswer(text: Words.english("call.reply.callEnded"), language: .english) }
            let w = Reader(person)
            let digit = digits.trimmingCharacters(in: .whitespaces)
            if notification.type == .dailyCallAway {
                return try await core.awayKeypress(digit, person: person, w: w, tx: tx, events: events)
            }
            if notification.type == .dailyCallConsent {
                return try await core.consentKeypress(digit, person: person, w: w, tx: tx, events: events)
            }
            if notification.type == .dailyCall {
                return try await dailyCallKeypress(
                    digit, step: step, callID: callID, person: person, w: w, tx: tx, events: events)
            }
            let text = try await { () async throws -> String in
                if notification.type == .alertSent {
                    return try await ownAlertKeypress(
                        digit, callID: callID, person: person, notification: notification, w: w, tx: tx, events: events)
                }
                if [.planReminder, .planLate].contains(notification.type) {
                    return try await planKeypress(digit, person: person, notification: notification, w: w, tx: tx, events: events)
                }
                guard digit == "1" else { return w("call.reply.noOne") }
                if ServiceCore.isAlert(notification.type) {
                    guard let id = notification.incidentID, let incident = try await tx.incidents.incident(id), incident.isOpen,
                        try await tx.links.link(userID: person.id, contactID: incident.userID)?.roles.isDependent == true,
                        let user = try await tx.people.user(incident.userID)
                    else { return w("call.reply.alertEnded") }
                    if incident.acknowledgedBy != person.id {
                        _ = try await core.claim(incident, of: user, by: person.id, tx: tx, events: events)
                    }
                    return w("call.reply.onIt", ["name": ServiceCore.displayName(of: user)])
                }
                // Only a reminder or a last call asks for a key to check in.
                guard [.reminder, .nonResponsive].contains(notification.type), !person.watchOnly else {
                    return w("call.reply.thanks")
                }
                let until = try await checkInByKeypress(person, callID: callID, w: w, tx: tx, events: events)
                return w("call.reply.checkedIn", ["until": until])
            }()
            return KeypressAnswer(text: text, language: w.words.rendered)
        }
    }

    /// A key on the call about her plan: 1 she is back (the plan ends, a check-in too), 3 one
    /// more hour. A key pressed again on the same call changes nothing more: the plan is no
    /// longer the one the call was about.
    private func planKeypress(
        _ digit: String, person: User, notification: LifeSignalModels.Notification, w: Reader, tx: StoreTransaction,
        events: PendingEvents
    ) async throws -> String {
        guard digit == "1" || digit == "3" else { return w("call.reply.plan.keys") }
        guard let plan = try await textedPlan(of: person, tx: tx) else { return w("call.reply.plan.none") }
        // The due time this call was about: at most 15 minutes (the reminder) after it was made.
        let asked = plan.dueAt <= notification.createdAt.addingTimeInterval(Plan.reminderLead + 60)
        if digit == "1" {
            guard asked else { return w("call.reply.plan.later", ["title": plan.title, "when": w.time(plan.dueAt, now: core.now)]) }
            _ = try await core.endPlan(plan.id, of: person.id, state: .done, source: .phoneKeypad, tx: tx, events: events)
            return w("call.reply.plan.back", ["title": plan.title])
        }
        let due =
            asked
            ? try await core.extendPlan(plan.id, of: person.id, minutes: 60, until: nil, tx: tx, events: events).dueAt : plan.dueAt
        return w("call.reply.plan.later", ["title": plan.title, "when": w.time(due, now: core.now)])
    }

    /// Key 1 on one of her calls checks her in (once per call, whatever Twilio repeats); returns
    /// her new deadline as she would say it.
    private func checkInByKeypress(
        _ person: User, callID: String, w: Reader, tx: StoreTransaction, events: PendingEvents
    ) async throws -> String {
        let result = try await core.recordCheckIn(
            userID: person.id, id: CheckInID(UUID(nameBasedOn: "call:" + callID)), clientAt: nil,
            source: .phoneKeypad, recordedBy: nil, tx: tx, events: events)
        return w.time(result.status.deadline, now: core.now)
    }

    /// A key the person pressed on the call telling her who was alerted. Never a responder's
    /// "I'm on it": the call was hers. 1 is "I'm safe": it ends a missed check-in (a check-in
    /// does), but an SOS is ended only on purpose (`SAFE` twice by text, or "I'm safe" in the
    /// app), so it stays on and she is told how. 9 keeps the alert on.
    private func ownAlertKeypress(
        _ digit: String, callID: String, person: User, notification: Notification, w: Reader, tx: StoreTransaction,
        events: PendingEvents
    ) async throws -> String {
        guard let id = notification.incidentID, let incident = try await tx.incidents.incident(id), incident.isOpen,
            incident.userID == person.id
        else { return w("call.reply.ownEnded") }
        let names = w.words.list(try await tx.links.responders(of: person.id).map { ServiceCore.displayName(of: $0) })
        let stillAlerted = names.isEmpty ? w("call.reply.nobody") : w("call.reply.stillAlerting", ["names": names])
        switch (digit, incident.kind) {
        case ("1", .missedCheckIn):
            let until = try await checkInByKeypress(person, callID: callID, w: w, tx: tx, events: events)
            return names.isEmpty
                ? w("call.reply.checkedIn", ["until": until])
                : w("call.reply.checkedInTelling", ["until": until, "names": names])
        case ("1", .manualAlert):
            return w("call.reply.sosStill", ["still": stillAlerted])
        case ("9", _):
            return w("call.reply.staysOn", ["still": stillAlerted])
        default:
            return w("call.reply.noOneOrNine")
        }
    }

    /// A key on her daily call's menu ("Press 1 if you're OK…"), or on the same menu when she
    /// called LifeSignal's number herself:
    /// - 1 checks her in (source: daily call, or inbound call); 2 too, and asks her responders,
    ///   quietly and once a day, to call her;
    /// - 9 asks "Press 9 again to alert Bob and Cleo"; the second 9 raises her alert, any other
    ///   key takes her back to the menu;
    /// - 8 ("stop these calls") asks for a second 8; the second stops her daily calls: nobody
    ///   is alerted about her any more (watch-only) and her responders are told;
    /// - 0, or a key that means nothing, reads the menu again.
    /// Once per call: a key repeated by the provider checks her in once.
    private func dailyCallKeypress(
        _ digit: String, step: KeypressStep?, callID: String, person: User, w: Reader, tx: StoreTransaction,
        events: PendingEvents
    ) async throws -> KeypressAnswer {
        let language = w.words.rendered
        let inbound = step?.isCallIn == true
        let menuStep: KeypressStep? = inbound ? .callIn : nil
        let menu = KeypressAnswer(text: "", language: language, ask: w("dailyCall.menu"), then: menuStep)
        func backToMenu(_ text: String) -> KeypressAnswer {
            KeypressAnswer(text: text, language: language, ask: w("dailyCall.menu"), then: menuStep)
        }
        let responders = try await tx.links.responders(of: person.id)
        let names = w.words.list(responders.map { ServiceCore.displayName(of: $0) })
        switch step {
        case .confirmHelp?, .callInConfirmHelp?:
            guard digit == "9" else { return backToMenu(w("dailyCall.help.cancelled")) }
            guard !responders.isEmpty else { return KeypressAnswer(text: w("dailyCall.help.nobody"), language: language) }
            _ = try await core.raise(person, tx: tx, events: events)
            return KeypressAnswer(text: w("dailyCall.help.going", ["names": names]), language: language)
        case .confirmStop?:
            guard digit == "8" else { return backToMenu(w("dailyCall.stop.kept")) }
            try await stopDailyCalls(person, responders: responders, tx: tx, events: events)
            return KeypressAnswer(text: w("dailyCall.stop.done"), language: language)
        case .callIn?, .callInPin?, nil:
            break
        }
        switch DailyCallRule.key(digit) {
        case .okay, .okayCallMe:
            let callMe = DailyCallRule.key(digit) == .okayCallMe
            let result = try await core.recordCheckIn(
                userID: person.id,
                id: inbound ? CheckInID(UUID(nameBasedOn: "call-in:" + callID)) : ServiceCore.dailyCallCheckInID(callID: callID),
                clientAt: nil,
                source: inbound ? .inboundCall : .dailyCall, recordedBy: nil, callMe: callMe, tx: tx, events: events)
            var text = w("call.reply.checkedIn", ["until": w.time(result.status.deadline, now: core.now)])
            if let request = result.callRequest { text = request.sentence(w.words) + " " + text }
            return KeypressAnswer(text: text, language: language)
        case .help:
            guard !responders.isEmpty else {
                return KeypressAnswer(text: w("dailyCall.help.nobody"), language: language)
            }
            return KeypressAnswer(
                text: "", language: language, ask: w("dailyCall.help.confirm", ["names": names]),
                then: inbound ? .callInConfirmHelp : .confirmHelp)
        case .stop where !inbound && person.schedule.dailyCall != nil:
            return KeypressAnswer(
                text: "", language: language,
                ask: responders.isEmpty ? w("dailyCall.stop.confirm") : w("dailyCall.stop.confirmTell", ["names": names]),
                then: .confirmStop)
        case .repeatMenu:
            return menu
        case .stop, .other:
            return backToMenu(w("dailyCall.unknownKey"))
        }
    }

    /// Key 8 twice on her daily call: she does not want these calls. They stop, and nobody
    /// is alerted about her any more (watch-only, as "never" on the rhythm page); her
    /// responders are told, so the people who relied on the call know it ended.
    private func stopDailyCalls(_ person: User, responders: [User], tx: StoreTransaction, events: PendingEvents) async throws {
        guard !person.watchOnly else { return }
        var stopped = person
        stopped.watchOnly = true
        try await core.save(stopped, tx: tx)
        let now = core.now
        try await tx.timeline.append(
            person.id, at: now, summary: "Daily calls stopped with key 8: no check-ins expected", DailyCallsStopped())
        let name = ServiceCore.displayName(of: person)
        try await core.notify(
            responders.map { responder in
                NotificationDraft(recipient: responder.id, kind: .pauseChanged, subject: person.id, knownRecipient: responder) { w in
                    (w("dailyCall.stopped.title", ["name": name]), w("dailyCall.stopped.body", ["name": name]))
                }
            }, tx: tx, events: events)
        _ = try await core.publishStatus(of: stopped, tx: tx, events: events)
    }

    /// A call to LifeSignal's own number. Who calls is the number, as for a text (the
    /// provider's signature proves the call came through it): the person it belongs to hears
    /// her name and the daily call's menu; a number nobody (or several people) use hears how to
    /// sign up. Caller ID can be forged more easily than a text's sender, so a call-in can
    /// check her in or raise her alert — never end an alert or change anything else.
    public func receiveCall(from address: String, callID: String) async throws -> KeypressAnswer {
        try await core.read { tx in
            guard let person = try await owner(ofNumber: address, tx: tx) else {
                return KeypressAnswer(
                    text: Words.english("callIn.unknown", ["link": core.configuration.publicBaseURL]), language: .english)
            }
            let w = Reader(person)
            guard !person.watchOnly else { return KeypressAnswer(text: w("callIn.watchOnly"), language: w.words.rendered) }
            let greeting = person.firstName.isEmpty ? w("callIn.greeting") : w("callIn.greeting.named", ["name": person.firstName])
            // With a PIN, nothing happens until it is given: a number can be made to look like hers.
            if person.hasCallInPin {
                return KeypressAnswer(text: greeting, language: w.words.rendered, ask: w("callIn.pin.ask"), then: .callInPin, digits: 4)
            }
            return KeypressAnswer(text: greeting, language: w.words.rendered, ask: w("dailyCall.menu"), then: .callIn)
        }
    }

    /// Her PIN, typed on a call she made. Right: the menu. Wrong: once more, up to three tries
    /// on a call; after ``wrongPinsPerHour`` wrong ones in an hour (over any number of calls)
    /// calling in is closed until the hour ends, so four digits cannot be guessed by trying.
    private func pinKeypress(
        _ digits: String, callID: String, person: User, w: Reader, tx: StoreTransaction
    ) async throws -> KeypressAnswer {
        let language = w.words.rendered
        let window = Self.pinWindow
        let wrongSoFar = try await tx.rateLimits.count(bucket: "call-in-pin:\(person.id)", now: core.now, window: window)
        guard wrongSoFar < Self.wrongPinsPerHour else { return KeypressAnswer(text: w("callIn.pin.locked"), language: language) }
        let typed = digits.trimmingCharacters(in: .whitespaces)
        if let stored = try await tx.people.callInPinHash(person.id), typed.count == 4,
            ServiceCore.callInPinHash(typed, of: person.id) == stored
        {
            _ = try await tx.rateLimits.hit(bucket: "call-in-pin-ok:\(callID)", now: core.now, window: window)
            return KeypressAnswer(text: "", language: language, ask: w("dailyCall.menu"), then: .callIn)
        }
        let wrong = try await tx.rateLimits.hit(bucket: "call-in-pin:\(person.id)", now: core.now, window: window)
        let onThisCall = try await tx.rateLimits.hit(bucket: "call-in-pin:\(callID)", now: core.now, window: window)
        guard wrong < Self.wrongPinsPerHour, onThisCall < 3 else {
            return KeypressAnswer(text: w("callIn.pin.wrong") + " " + w("call.goodbye"), language: language)
        }
        return KeypressAnswer(text: w("callIn.pin.wrong"), language: language, ask: w("callIn.pin.ask"), then: .callInPin, digits: 4)
    }

    /// Whether her PIN was given on `callID` in the last hour (in this window or the one before,
    /// so a call across the hour keeps it).
    private func pinGiven(on callID: String, tx: StoreTransaction) async throws -> Bool {
        let bucket = "call-in-pin-ok:\(callID)"
        let now = core.now
        if try await tx.rateLimits.count(bucket: bucket, now: now, window: Self.pinWindow) > 0 { return true }
        return try await tx.rateLimits.count(bucket: bucket, now: now.addingTimeInterval(-Self.pinWindow), window: Self.pinWindow) > 0
    }

    /// Wrong PINs in an hour, over all calls from her number, before calling in closes until
    /// the hour ends.
    static let wrongPinsPerHour = 5
    static let pinWindow: TimeInterval = 3600

    /// The one person a number speaks for: whoever signs in with it, else the one person who
    /// proved it as a channel.
    private func owner(ofNumber address: String, tx: StoreTransaction) async throws -> User? {
        let owners = try await tx.channels.owners(ofNumber: address)
        guard let id = owners.signsIn ?? (owners.proved.count == 1 ? owners.proved.first : nil) else { return nil }
        return try await tx.people.user(id)
    }
}

/// Where in a call's conversation a key was pressed: the call's own menu (nil), or a question
/// the previous answer asked.
public enum KeypressStep: String, Sendable, Hashable {
    /// "Press 9 again to alert Bob and Cleo."
    case confirmHelp = "confirm-help"
    /// "Press 8 again to stop these calls."
    case confirmStop = "confirm-stop"
    /// The menu of a call she made to LifeSignal's number.
    case callIn = "call-in"
    /// "Press 9 again…" on a call she made.
    case callInConfirmHelp = "call-in-confirm-help"
    /// "Please enter your four-digit PIN" on a call she made, when she chose one.
    case callInPin = "call-in-pin"

    /// A step of a call she made (the caller is the number), not of one LifeSignal placed.
    public var isCallIn: Bool { self == .callIn || self == .callInConfirmHelp || self == .callInPin }
}

/// What a call says after a key: `text`, then, when `ask` is set, a question that waits for
/// another key (posted back with `then` as its step); without `ask` the call ends after `text`.
public struct KeypressAnswer: Sendable, Hashable {
    public var text: String
    /// The language the words are in: read by that language's voice.
    public var language: Language
    public var ask: String?
    public var then: KeypressStep?
    /// How many keys the question waits for (four for a PIN).
    public var digits: Int

    public init(text: String, language: Language, ask: String? = nil, then: KeypressStep? = nil, digits: Int = 1) {
        self.text = text
        self.language = language
        self.ask = ask
        self.then = then
        self.digits = digits
    }
}
