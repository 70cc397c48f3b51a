import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// The daily call: the engine's step that rings her number, and the loud failure when it
/// cannot — the worst thing a daily call can do is go quiet.
extension ServiceCore {
    /// A try that has not reached the provider this long after its time is a failure her
    /// responders hear about.
    public static let dailyCallPlacedWithin: TimeInterval = 120

    /// One try of her daily call: a call to the call's number and nowhere else (not her app,
    /// not her e-mail: the call is what she answers), greeting her by name and reading the
    /// menu of keys. Key presses come back through ``Replies``.
    /// `test`: a drill's call, which says it is a test and is otherwise the same call.
    func dailyCallDraft(_ user: User, call: DailyCall, attempt: Int, stepKey: StepKey?, test: Bool = false) -> NotificationDraft {
        let number = call.number ?? user.phone
        let line = callLine(to: number, of: user.id, purpose: "daily-call")
        let named = !user.firstName.isEmpty
        let greeting = test ? "dailyCall.test" + (named ? ".named" : "") : Self.greetingKey(hour: call.hour, named: named)
        return NotificationDraft(
            recipient: user.id, kind: .dailyCall, subject: user.id, stepKey: stepKey, knownRecipient: user, onlyTarget: line,
            timelineSummary: test ? "Test of the daily call to \(number)" : "Daily call \(attempt) of \(call.attempts) to \(number)"
        ) { w in
            (w(greeting, ["name": user.firstName]), w("dailyCall.menu"))
        }
    }

    /// What `users.call_in_pin` stores for `pin`: salted with her id, so one table's hashes
    /// say nothing about another person's PIN.
    static func callInPinHash(_ pin: String, of person: UserID) -> String { SHA256Hex.of("call-in-pin:\(person):\(pin)") }

    /// The check-in that key 1 (or 2) on the call `callID` LifeSignal placed to her records:
    /// one per call, however often the provider repeats the key.
    static func dailyCallCheckInID(callID: String) -> CheckInID { CheckInID(UUID(nameBasedOn: "call:" + callID)) }

    /// The one target of a call LifeSignal places to a number of hers on its own account (the
    /// daily call, its consent call, the away call): never her other channels, never a fallback.
    func callLine(to number: String, of person: UserID, purpose: String) -> Channel {
        Channel(
            id: ChannelID(UUID(nameBasedOn: "\(purpose):\(person):\(number)")), userID: person, kind: .voice, address: number,
            priority: 0, createdAt: now, verifiedAt: now)
    }

    /// "Good morning" before noon, "Good afternoon" until six, then "Good evening", by the
    /// hour she chose (the call that rings late after an outage still greets her as planned).
    static func greetingKey(hour: Int, named: Bool) -> String {
        let part = hour < 12 ? "morning" : hour < 18 ? "afternoon" : "evening"
        return "dailyCall.greeting.\(part)" + (named ? ".named" : "")
    }

    /// Why a try of her daily call did not ring.
    enum DailyCallFailure: String, Sendable {
        /// Not handed to the provider within ``dailyCallPlacedWithin`` of its time (the engine
        /// or the outbox was down or behind).
        case late
        /// The provider refused it (a number it will not call).
        case refused
        /// It fell in the night where she lives, and she did not choose a night-time call.
        case night
    }

    /// Tells her responders that today's call could not be placed and asks them to check on
    /// her: once per responder and calendar day in her zone, however many tries failed. Her
    /// timeline keeps why and the metric counts it — every time, or with `onlyWhenNew` only
    /// when a responder was told just now (a stalled call found again on the next pass).
    /// Returns whether anyone was told now.
    @discardableResult
    func tellDailyCallFailed(
        _ user: User, callAt: Date, why: DailyCallFailure, onlyWhenNew: Bool = false, tx: StoreTransaction,
        events: PendingEvents
    ) async throws -> Bool {
        let zone = HumanTime.zone(user.schedule.dailyCall?.timeZone ?? user.timeZone)
        let day = StepKey.localDay(callAt, in: zone)
        let responders = try await tx.links.responders(of: user.id)
        let name = Self.displayName(of: user)
        let now = self.now
        let sent = try await notify(
            responders.map { responder in
                NotificationDraft(
                    recipient: responder.id, kind: .dailyCallFailed, subject: user.id,
                    stepKey: .dailyCallFailed(user: user.id, day: day, responder: responder.id), knownRecipient: responder
                ) { w in
                    (
                        w("dailyCall.failed.title", ["name": name]),
                        w("dailyCall.failed.body", ["name": name, "time": w.time(callAt, subject: zone, now: now)])
                    )
                }
            }, tx: tx, events: events)
        let toldNow = sent.contains { $0 != nil }
        if toldNow || !onlyWhenNew {
            try await tx.timeline.append(
                user.id, at: now, summary: "Daily call due at \(HumanTime.clock(callAt, in: zone)) not placed (\(why.rawValue))",
                DailyCallUnplaced(due: callAt, reason: why.rawValue))
            events.count(.dailyCallUnplaced(reason: why.rawValue))
        }
        return toldNow
    }

    /// Daily calls still in the outbox ``dailyCallPlacedWithin`` after their slot: the time
    /// they were queued plus the spread of their minute at the provider's rate (``CallPacing``:
    /// 1,000 calls due at 09:00 at 10 a second go out over 100 s, and the last is late only
    /// after 09:03:40). A paced morning is not a failure; a stalled outbox is.
    /// `lateBy` is how far past its slot a call counts (`/health` asks for five minutes).
    func stalledDailyCalls(tx: StoreTransaction, lateBy: TimeInterval = dailyCallPlacedWithin) async throws -> [StalledDailyCall] {
        let candidates = try await tx.dailyCalls.stalled(queuedBefore: now.addingTimeInterval(-lateBy), limit: 200)
        var spreads: [Date: TimeInterval] = [:]
        var late: [StalledDailyCall] = []
        for call in candidates {
            let minute = Date(timeIntervalSince1970: (call.queuedAt.timeIntervalSince1970 / 60).rounded(.down) * 60)
            if spreads[minute] == nil {
                let count = try await tx.dailyCalls.queued(from: minute, to: minute.addingTimeInterval(60))
                spreads[minute] = CallPacing.spread(dueAtSameMinute: count, callsPerSecond: configuration.callsPerSecond)
            }
            let slotEnd = minute.addingTimeInterval(spreads[minute] ?? 0)
            if now.timeIntervalSince(max(slotEnd, call.queuedAt)) > lateBy { late.append(call) }
        }
        return late
    }

    /// Daily calls still waiting for the outbox ``dailyCallPlacedWithin`` after they were
    /// queued: each person's responders are told (once a day), so a stalled outbox or a
    /// provider that stopped answering is never silent. Returns how many people's responders
    /// were told now.
    func reportStalledDailyCalls(tx: StoreTransaction, events: PendingEvents) async throws -> Int {
        let stalled = try await stalledDailyCalls(tx: tx)
        guard !stalled.isEmpty else { return 0 }
        let people = try await tx.people.users(Array(Set(stalled.map(\.person))))
        var told = 0
        for call in stalled {
            guard let user = people[call.person], user.schedule.dailyCall != nil else { continue }
            if try await tellDailyCallFailed(user, callAt: call.queuedAt, why: .late, onlyWhenNew: true, tx: tx, events: events) {
                told += 1
            }
        }
        return told
    }
}
