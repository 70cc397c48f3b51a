import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// A person's escalation ladder: who is told first, who next and after how long. She reads
/// and saves it (optimistically, by version) and sees it with real times for her next deadline.
public struct Ladders: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

extension Ladders {
    /// The caller's ladder: the one she saved, or the default (everyone at once, version 0).
    public func ladder(_ caller: Caller) async throws -> Ladder {
        try await core.read { tx in try await tx.ladders.ladder(of: caller.user.id) ?? .default }
    }

    /// Saves the caller's ladder. Refused with every step's problem when it is not valid
    /// (nothing is saved), and as a conflict when it changed since `change.version`.
    public func setLadder(_ caller: Caller, _ change: LadderChange) async throws -> Ladder {
        try await core.write { tx, events in
            let me = caller.user.id
            let stored = try await tx.ladders.ladder(of: me)
            let responders = try await tx.links.responders(of: me)
            var ladder = Ladder(
                steps: change.steps, sosClimbs: change.sosClimbs ?? stored?.sosClimbs ?? false, version: change.version + 1)
            let problems = LadderRule.problems(ladder, responders: Set(responders.map(\.id)))
            if let first = problems.first {
                // Every problem in the message; the words (for a page, in the reader's language)
                // name the first, which is the one to fix first.
                let names = Dictionary(uniqueKeysWithValues: responders.map { ($0.id, ServiceCore.displayName(of: $0)) })
                var error = ServiceError(.invalid, code: .invalidSteps, Self.said(first, names: names), field: first.field)
                error.message = problems.map { Words.english(Self.said($0, names: names)) }.joined(separator: " ")
                throw error
            }
            guard change.version == (stored?.version ?? 0),
                try await tx.ladders.save(me, ladder, expected: change.version, at: core.now)
            else {
                throw ServiceError(.conflict, code: .ladderChanged, Said("error.ladder.changed"))
            }
            ladder.version = change.version + 1
            try await tx.timeline.append(
                me, at: core.now, summary: "Escalation ladder saved (\(ladder.steps.count) step\(ladder.steps.count == 1 ? "" : "s"))",
                LadderSaved(steps: ladder.steps.count))
            events.add(.contactsChanged, to: [me])
            return ladder
        }
    }

    /// The caller's ladder for her next deadline, with real times in her zone and how each of its
    /// people would be reached: what happens if she misses it and nobody says "I'm on it".
    public func preview(_ caller: Caller) async throws -> LadderPreview {
        try await core.read { tx in
            guard let user = try await tx.people.user(caller.user.id) else { throw ServiceError.unauthorized }
            let ladder = try await tx.ladders.ladder(of: user.id) ?? .default
            let responders = ServiceCore.keyHoldersFirst(
                try await tx.links.responders(of: user.id), keyHolders: try await tx.links.keyHolders(of: user.id))
            let holders = Set(try await tx.links.keyHolders(of: user.id))
            let deadline = user.watchOnly ? nil : Deadline.of(user)
            let opensAt = (deadline ?? core.now).addingTimeInterval(Double(EscalationPlan.graceMinutes(of: user) * 60))
            let snapshot = LadderRule.snapshot(
                ladder, responders: responders.map(\.id), openedAt: opensAt, climbs: true, repeatAt: nil,
                exhaustAfter: core.configuration.escalation.exhaustAfter)
            let w = Reader(user)
            var members: [UserID: LadderPreview.Member] = [:]
            for responder in responders {
                let probe = Notification(
                    id: NotificationID(UUID()), recipientID: responder.id, type: .incidentOpened, subjectUserID: user.id,
                    title: "", body: "", createdAt: core.now)
                let channels = try await core.deliveryTargets(for: probe, tx: tx).map(\.channel)
                var seen = Set<ChannelKind>()
                members[responder.id] = LadderPreview.Member(
                    userID: responder.id, name: ServiceCore.displayName(of: responder),
                    channels: channels.filter { seen.insert($0).inserted }.map(\.rawValue), keyHolder: holders.contains(responder.id))
            }
            let steps = snapshot.steps.map { step in
                LadderPreview.Step(at: step.at, members: step.responders.compactMap { members[$0] })
            }
            let exhaustedAt = steps.last.map { $0.at.addingTimeInterval(core.configuration.escalation.exhaustAfter) }
            return LadderPreview(
                deadline: deadline, steps: steps, exhaustedAt: exhaustedAt,
                sentence: Self.sentence(deadline: deadline, steps: steps, exhaustedAt: exhaustedAt, now: core.now, w))
        }
    }

    /// "If you miss 09:30: 09:40 Cleo (text, call) · 09:55 Bob (app, text) · 10:25 nobody has
    /// answered: everyone is called", in the reader's words and zone.
    static func sentence(deadline: Date?, steps: [LadderPreview.Step], exhaustedAt: Date?, now: Date, _ w: Reader) -> String {
        guard let deadline else { return w("ladder.preview.watchOnly") }
        guard steps.contains(where: { !$0.members.isEmpty }) else { return w("ladder.preview.nobody") }
        var parts: [String] = []
        for step in steps where !step.members.isEmpty {
            let people = step.members.map { member in
                let channels = member.channels.compactMap(ChannelKind.init(rawValue:)).map { ServiceCore.channelName($0, w) }
                return channels.isEmpty
                    ? member.name : w("ladder.preview.member", ["name": member.name, "channels": w.words.list(channels)])
            }
            parts.append(w("ladder.preview.step", ["time": HumanTime.clock(step.at, in: w.zone), "names": w.words.list(people)]))
        }
        if let exhaustedAt { parts.append(w("ladder.preview.exhausted", ["time": HumanTime.clock(exhaustedAt, in: w.zone)])) }
        return w("ladder.preview.head", ["time": HumanTime.clock(deadline, in: w.zone)]) + " " + parts.joined(separator: " · ")
    }

    /// One problem of a ladder in words, naming the step (1-based) and the person (never the
    /// name of someone who is not her responder: an id she typed tells her nothing about them).
    static func said(_ problem: LadderProblem, names: [UserID: String]) -> Said {
        let step = String((problem.step ?? 0) + 1)
        switch problem.kind {
        case .noSteps: return Said("error.ladder.noSteps")
        case .tooManySteps: return Said("error.ladder.tooManySteps", ["max": String(LadderRule.maxSteps)])
        case .waitOutOfRange: return Said("error.ladder.wait", ["step": step])
        case .firstWaitNotZero: return Said("error.ladder.firstWait", ["step": step])
        case .totalTooLong: return Said("error.ladder.total", ["hours": String(LadderRule.maxTotalMinutes / 60)])
        case .emptyStep: return Said("error.ladder.emptyStep", ["step": step])
        case let .notAResponder(id):
            return names[id].map { Said("error.ladder.notAResponder", ["step": step, "name": $0]) }
                ?? Said("error.ladder.notAResponder.unknown", ["step": step])
        case let .placedTwice(id): return Said("error.ladder.placedTwice", ["step": step, "name": names[id] ?? ""])
        }
    }
}
