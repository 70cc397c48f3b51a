import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// What would happen, before it must: the escalation preview and test alerts (drills).
public struct Drills: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

extension Drills {
    /// The exact planned timeline for the caller's next deadline: reminders, last call, the
    /// incident with who is told on which channel, and the repeats — the steps not yet taken —
    /// with the steps of her running plans among them, in time order.
    public func timelinePreview(_ caller: Caller) async throws -> [PreviewStep] {
        try await core.read { tx in
            guard let user = try await tx.people.user(caller.user.id) else { throw ServiceError.unauthorized }
            // Someone who only watches over others is never overdue: nothing would happen.
            guard !user.watchOnly else { return [] }
            let done = try await tx.people.escalationState(user.id)?.step ?? 0
            let plan = EscalationPlan.steps(for: user)
            let running = try await tx.plans.runningPlanStates(of: user.id)
            let responderIDs = try await tx.links.responderIDs(of: user.id)
            let names = try await tx.people.users(responderIDs)
            var responders: [PreviewStep.Responder] = []
            for id in responderIDs {
                // Incident notifications go to the first channel and fall back down the list.
                let probe = Notification(
                    id: NotificationID(UUID()), recipientID: id, type: .incidentOpened, subjectUserID: user.id,
                    title: "", body: "", createdAt: core.now)
                let targets = try await core.deliveryTargets(for: probe, tx: tx)
                responders.append(.init(userID: id, name: ServiceCore.displayName(of: names[id]), channels: targets.map(\.channel)))
            }
            // Said to the caller, in their words.
            let w = Reader(user)
            func who(_ responders: [PreviewStep.Responder]) -> String {
                responders.isEmpty
                    ? w("preview.nobody")
                    : responders.map { responder in
                        responder.channels.first.map {
                            w("preview.by", ["name": responder.name, "channel": ServiceCore.channelName($0, w)])
                        }
                            ?? w("preview.byNothing", ["name": responder.name])
                    }.joined(separator: ", ")
            }
            let everyone = who(responders)
            // Her ladder, as an alert opening at the step's time would snapshot it.
            let ladder = try await tx.ladders.ladder(of: user.id) ?? .default
            let ordered = ServiceCore.keyHoldersFirst(
                Array(try await tx.people.users(responderIDs).values).sorted { a, b in
                    (responderIDs.firstIndex(of: a.id) ?? 0) < (responderIDs.firstIndex(of: b.id) ?? 0)
                }, keyHolders: try await tx.links.keyHolders(of: user.id)
            ).map(\.id)
            var steps: [PreviewStep] = []
            for (index, step) in plan.enumerated() where index >= done {
                switch step.kind {
                case .reminder:
                    // The time left when it comes (quiet hours may have moved it).
                    let left = max(0, Int(Deadline.of(user).timeIntervalSince(step.at)))
                    steps.append(
                        PreviewStep(
                            at: step.at, kind: .reminder,
                            summary: w("preview.reminder", ["duration": w.words.duration(seconds: left)])))
                case let .call(attempt):
                    let number = user.schedule.dailyCall?.number ?? user.phone
                    var values = ["attempt": String(attempt), "attempts": String(user.schedule.dailyCall?.attempts ?? 1), "number": number]
                    // The first try shares its minute with everyone else's called then: at the
                    // provider's rate, hers may come some minutes later.
                    var key = "preview.dailyCall"
                    if attempt == 1, let call = user.schedule.dailyCall,
                        let minutes = CallPacing.previewMinutes(
                            dueAtSameMinute: Self.dailyCalls(ringingAt: step.at, among: try await tx.dailyCalls.times()),
                            callsPerSecond: core.configuration.callsPerSecond)
                    {
                        key = "preview.dailyCall.paced"
                        values["duration"] = w.words.duration(seconds: minutes * 60)
                        values["time"] = call.time
                    }
                    steps.append(PreviewStep(at: step.at, kind: .reminder, summary: w(key, values)))
                case .lastCall:
                    steps.append(
                        PreviewStep(
                            at: step.at, kind: .lastCall,
                            summary: user.graceMinutes > 0
                                ? w("preview.lastCall", ["duration": w.words.duration(seconds: user.graceMinutes * 60)])
                                : w("preview.lastCall.now")))
                case .openIncident:
                    // One step of the ladder after another: each with its own people.
                    let climb = LadderRule.snapshot(
                        ladder, responders: ordered, openedAt: step.at, climbs: true, repeatAt: nil,
                        exhaustAfter: core.configuration.escalation.exhaustAfter)
                    for rung in climb.steps where rung.at == step.at || !rung.responders.isEmpty {
                        let people = rung.responders.compactMap { id in responders.first { $0.userID == id } }
                        steps.append(
                            PreviewStep(at: rung.at, kind: .incident, summary: w("preview.alert", ["who": who(people)]), responders: people)
                        )
                    }
                    let policy = core.configuration.escalation
                    var count = 1
                    var last = step.at
                    while !responders.isEmpty, let next = policy.nextNotification(kind: .missedCheckIn, count: count, lastAt: last) {
                        count += 1
                        last = next
                        steps.append(
                            PreviewStep(
                                at: next, kind: .repeatNotification,
                                summary: w("preview.repeat", ["round": String(count), "who": everyone]), responders: responders))
                    }
                }
            }
            // Her running plans: each one's steps not yet taken, for the time they are about
            // (a long plan's next check-in, else its due time); the alert tells her ladder's first step.
            let first = LadderRule.firstStep(ladder, responders: ordered)
            let firstPeople = first.compactMap { id in responders.first { $0.userID == id } }
            for state in running {
                let (title, grace) = (state.plan.title, user.graceMinutes)
                for step in PlanRule.Step.allCases where step.rawValue >= state.step {
                    let at = PlanRule.at(step, plan: state.plan, graceMinutes: grace)
                    switch step {
                    case .reminder:
                        guard at > core.now else { continue }
                        steps.append(PreviewStep(at: at, kind: .reminder, summary: w("preview.plan.reminder", ["title": title])))
                    case .late:
                        steps.append(PreviewStep(at: at, kind: .lastCall, summary: w("preview.plan.late", ["title": title])))
                    case .overdue:
                        steps.append(
                            PreviewStep(
                                at: at, kind: .incident, summary: w("preview.plan.alert", ["title": title, "who": who(firstPeople)]),
                                responders: firstPeople))
                    }
                }
            }
            // In time order; steps at the same moment keep the order they were planned in.
            return steps.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        }
    }

    /// How many people's daily calls ring at `at`: those whose time of day, in their zone,
    /// falls on that instant (09:00 in Berlin and 08:00 in London, in winter).
    static func dailyCalls(ringingAt at: Date, among times: [DailyCallTime]) -> Int {
        times.reduce(0) { count, time in
            guard let zone = TimeZone(identifier: time.timeZone) else { return count }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            var day = calendar.dateComponents([.year, .month, .day], from: at)
            day.hour = time.minuteOfDay / 60
            day.minute = time.minuteOfDay % 60
            return calendar.date(from: day) == at ? count + time.people : count
        }
    }

    /// Sends a test notification to every responder on every channel and returns what was queued.
    public func runDrill(_ caller: Caller) async throws -> DrillReport {
        let drillID: DrillID = core.newID()
        let ids: ([(UserID, NotificationID)], [UserID: LadderPlace]) = try await core.write { tx, events in
            guard let user = try await tx.people.user(caller.user.id) else { throw ServiceError.unauthorized }
            let responders = try await tx.links.responderIDs(of: user.id)
            guard !responders.isEmpty else {
                throw ServiceError(.conflict, code: .noResponders, Said("error.noResponders"))
            }
            try await core.enforceLimit(
                core.configuration.limits.drills, refusal: .tooManyDrills, sender: user.id, recipient: nil,
                message: Said("error.tooManyDrills"), tx: tx)
            let name = ServiceCore.displayName(of: user)
            let places = try await ladderPlaces(of: user.id, tx: tx)
            var sent: [(UserID, NotificationID)] = []
            for responder in responders {
                // Everyone is told at once, the drill's whole point being to reach every channel
                // now; a ladder's people read which step is theirs and when it would come.
                let place = places[responder]
                if let n = try await core.notify(
                    NotificationDraft(recipient: responder, kind: .drill, subject: user.id, stepKey: .drill(drillID, responder: responder))
                    {
                        w in (w("drill.title", ["name": name]), Self.drillBody(name: name, place: place, w))
                    },
                    tx: tx, events: events)
                {
                    sent.append((responder, n.id))
                }
            }
            var summary = "Drill sent to \(sent.count) responder\(sent.count == 1 ? "" : "s")"
            // On daily calls, the drill rings her too: the call itself, through the same
            // provider, menu and keys, saying it is a test (1 checks her in; 9 twice is a real
            // SOS — a key for help is never a test).
            if let call = user.schedule.dailyCall, !user.watchOnly,
                let n = try await core.notify(
                    core.dailyCallDraft(user, call: call, attempt: 1, stepKey: .drill(drillID, responder: user.id), test: true),
                    tx: tx, events: events)
            {
                sent.append((user.id, n.id))
                summary += ", and a test of the daily call"
            }
            try await tx.timeline.append(
                user.id, at: core.now, summary: summary, DrillSent(drill: drillID, notifications: sent, places: places))
            return (sent, places)
        }
        return try await drillReport(
            id: drillID, createdAt: core.now, owner: caller.user.id, notifications: ids.0, places: ids.1)
    }

    /// The drill's words to one responder: a test, and on a ladder of several steps, which is
    /// theirs and how long after an alert opens it is told.
    static func drillBody(name: String, place: LadderPlace?, _ w: Reader) -> String {
        let body = w("drill.body", ["name": name])
        guard let place else { return body }
        let step = ["step": String(place.step), "steps": String(place.steps)]
        return body + " "
            + (place.afterMinutes == 0
                ? w("drill.step.first", step)
                : w("drill.step.later", step.merging(["duration": w.words.duration(seconds: place.afterMinutes * 60)]) { a, _ in a }))
    }

    /// Where each of the person's responders stands on her ladder as an alert opening now would
    /// snapshot it; empty when it tells everyone at once.
    private func ladderPlaces(of person: UserID, tx: StoreTransaction) async throws -> [UserID: LadderPlace] {
        guard let ladder = try await tx.ladders.ladder(of: person), ladder.steps.count > 1 else { return [:] }
        let responders = ServiceCore.keyHoldersFirst(
            try await tx.links.responders(of: person), keyHolders: try await tx.links.keyHolders(of: person))
        let names = Dictionary(uniqueKeysWithValues: responders.map { ($0.id, ServiceCore.displayName(of: $0)) })
        var places: [UserID: LadderPlace] = [:]
        for responder in responders {
            places[responder.id] = LadderRule.place(of: responder.id, on: ladder, responders: responders.map(\.id)) { names[$0] ?? "" }
        }
        return places
    }

    /// A drill of the caller's, with each delivery's current outcome.
    public func drill(_ caller: Caller, id: DrillID) async throws -> DrillReport {
        let entries = try await Timeline(core).timeline(caller)
        for entry in entries.reversed() where entry.kind == DrillSent.kind {
            guard let sent = DrillSent.read(entry.detail), sent.drill == id else { continue }
            return try await drillReport(
                id: id, createdAt: entry.at, owner: caller.user.id, notifications: sent.notifications, places: sent.places)
        }
        throw ServiceError(.notFound, code: .drillNotFound, Said("error.drillNotFound"))
    }

    /// `owner`: whose drill it is; her own row is the test of her daily call.
    private func drillReport(
        id: DrillID, createdAt: Date, owner: UserID, notifications: [(UserID, NotificationID)], places: [UserID: LadderPlace]
    ) async throws -> DrillReport {
        try await core.read { tx in
            let names = try await tx.people.users(notifications.map(\.0))
            var recipients: [DrillReport.Recipient] = []
            for (userID, notificationID) in notifications {
                let deliveries = try await tx.deliveries.list(notification: notificationID)
                var checkedIn: Bool?
                if userID == owner {
                    checkedIn = false
                    for callID in deliveries.compactMap(\.providerID)
                    where try await tx.checkIns.checkIn(ServiceCore.dailyCallCheckInID(callID: callID), of: owner) != nil {
                        checkedIn = true
                    }
                }
                recipients.append(
                    .init(
                        userID: userID, name: ServiceCore.displayName(of: names[userID]),
                        notificationID: notificationID, deliveries: deliveries.map { DeliveryProof($0) },
                        ladderPlace: places[userID], checkedIn: checkedIn))
            }
            // Each place names the people on the steps before it, as the drill's report lists them.
            let placed = recipients.filter { $0.ladderPlace != nil }.sorted { $0.ladderPlace!.step < $1.ladderPlace!.step }
            for index in recipients.indices {
                guard let place = recipients[index].ladderPlace else { continue }
                recipients[index].ladderPlace?.before = placed.filter { $0.ladderPlace!.step < place.step }.map(\.name)
            }
            return DrillReport(id: id, createdAt: createdAt, recipients: recipients)
        }
    }
}

extension ServiceCore {
    /// A channel as the preview names it, in the reader's words.
    static func channelName(_ kind: ChannelKind, _ w: Reader) -> String {
        switch kind {
        case .inApp: w("preview.channel.inApp")
        case .webPush: w("preview.channel.webPush")
        case .apns: w("preview.channel.push")
        case .sms: w("preview.channel.sms")
        case .voice: w("preview.channel.voice")
        case .email: w("preview.channel.email")
        case .webhook: w("preview.channel.webhook")
        case .ntfy: w("preview.channel.ntfy")
        case .log: w("preview.channel.log")
        }
    }
}
