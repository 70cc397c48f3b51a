import Foundation
import LifeSignalModels

/// One thing wrong with a ladder someone tried to save, on the step it is about.
public struct LadderProblem: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case tooManySteps
        case noSteps
        case waitOutOfRange
        case firstWaitNotZero
        case totalTooLong
        case emptyStep
        case notAResponder(UserID)
        case placedTwice(UserID)
    }

    /// The step (0-based) it is about; nil for the ladder as a whole.
    public var step: Int?
    public var kind: Kind

    public init(step: Int?, kind: Kind) {
        self.step = step
        self.kind = kind
    }

    /// The input at fault, as the API names it (`steps[1].waitMinutes`).
    public var field: String {
        guard let step else { return "steps" }
        switch kind {
        case .waitOutOfRange, .firstWaitNotZero: return "steps[\(step)].waitMinutes"
        default: return "steps[\(step)].responders"
        }
    }
}

/// The rules of a person's escalation ladder: what may be saved, what an incident snapshots,
/// and how far it has climbed at a moment. Pure: the engine and the API both ask here.
public enum LadderRule {
    public static let maxSteps = 6
    public static let waitRange = 1...120
    /// The waits of all steps together: a ladder never takes longer than this to reach its top.
    public static let maxTotalMinutes = 360

    /// What is wrong with `ladder` for a person whose responders are `responders`; empty when it
    /// may be saved.
    public static func problems(_ ladder: Ladder, responders: Set<UserID>) -> [LadderProblem] {
        var problems: [LadderProblem] = []
        if ladder.steps.isEmpty { return [LadderProblem(step: nil, kind: .noSteps)] }
        if ladder.steps.count > maxSteps { problems.append(LadderProblem(step: nil, kind: .tooManySteps)) }
        var placed = Set<UserID>()
        for (index, step) in ladder.steps.enumerated() {
            if index == 0 {
                if step.waitMinutes != 0 { problems.append(LadderProblem(step: 0, kind: .firstWaitNotZero)) }
            } else if !waitRange.contains(step.waitMinutes) {
                problems.append(LadderProblem(step: index, kind: .waitOutOfRange))
            }
            // Only the last step may be "everyone else".
            if step.responders.isEmpty && index < ladder.steps.count - 1 {
                problems.append(LadderProblem(step: index, kind: .emptyStep))
            }
            for responder in step.responders {
                if !responders.contains(responder) {
                    problems.append(LadderProblem(step: index, kind: .notAResponder(responder)))
                } else if !placed.insert(responder).inserted {
                    problems.append(LadderProblem(step: index, kind: .placedTwice(responder)))
                }
            }
        }
        if ladder.steps.map(\.waitMinutes).reduce(0, +) > maxTotalMinutes {
            problems.append(LadderProblem(step: nil, kind: .totalTooLong))
        }
        return problems
    }

    /// The ladder an incident opening at `openedAt` climbs: every step's responders named (the
    /// last step also gets everyone not placed before it, in `responders`' order), gone
    /// responders left out, each step's time fixed. `climbs` false (an SOS) tells every step at once.
    public static func snapshot(
        _ ladder: Ladder, responders: [UserID], openedAt: Date, climbs: Bool, repeatAt: Date?, exhaustAfter: TimeInterval
    ) -> IncidentLadder {
        let current = Set(responders)
        let placed = Set(ladder.steps.flatMap(\.responders))
        let unplaced = responders.filter { !placed.contains($0) }
        var at = openedAt
        var steps: [IncidentLadder.Step] = []
        for (index, step) in ladder.steps.enumerated() {
            if climbs { at = at.addingTimeInterval(TimeInterval(step.waitMinutes * 60)) }
            var members = step.responders.filter { current.contains($0) }
            if index == ladder.steps.count - 1 { members += unplaced }
            steps.append(IncidentLadder.Step(responders: members, at: at))
        }
        if steps.isEmpty { steps = [IncidentLadder.Step(responders: responders, at: openedAt)] }
        let told = climbs ? 1 : steps.count
        return IncidentLadder(
            steps: steps, told: told, nextRepeatAt: repeatAt,
            exhaustsAt: told == steps.count ? openedAt.addingTimeInterval(exhaustAfter) : nil)
    }

    /// The ladder of an incident opened before ladders: one step, everyone, told at once.
    public static func legacy(_ incident: Incident, responders: [UserID], exhaustAfter: TimeInterval) -> IncidentLadder {
        IncidentLadder(
            steps: [IncidentLadder.Step(responders: responders, at: incident.openedAt)], told: 1,
            nextRepeatAt: incident.nextNotifyAt, exhaustsAt: incident.openedAt.addingTimeInterval(exhaustAfter))
    }

    /// How many steps are told once the steps due at `now` are: never a burst of missed steps
    /// after downtime, the climb simply reaches the step due now.
    public static func told(after ladder: IncidentLadder, now: Date) -> Int {
        var told = ladder.told
        while told < ladder.steps.count, ladder.steps[told].at <= now { told += 1 }
        return told
    }

    /// No silent skip: while the step told last has nobody on it who can still be told
    /// (`reachable`) and steps are left, the next one is told at once. Returns the steps told.
    public static func skippingEmpty(_ ladder: IncidentLadder, reachable: (UserID) -> Bool = { _ in true }) -> Int {
        var told = ladder.told
        while told > 0, told < ladder.steps.count, !ladder.steps[told - 1].responders.contains(where: reachable) { told += 1 }
        return told
    }

    /// A lapsed claim resumes at the next step, now (see ``nextStepNow(_:now:)``), and everyone
    /// told hears it again at once.
    public static func resuming(_ ladder: IncidentLadder, now: Date, exhaustAfter: TimeInterval) -> IncidentLadder {
        var ladder = nextStepNow(ladder, now: now)
        ladder.nextRepeatAt = now
        if ladder.told >= ladder.steps.count, ladder.exhaustedAt == nil {
            // Every step was told: whoever is told again has the whole wait to answer.
            ladder.exhaustsAt = now.addingTimeInterval(exhaustAfter)
        }
        return ladder
    }

    /// The steps not yet told moved so the next one is due at `now`, the ones after keeping
    /// their waits: a lapsed claim, or a step nobody on it could be reached on.
    public static func nextStepNow(_ ladder: IncidentLadder, now: Date) -> IncidentLadder {
        var ladder = ladder
        guard ladder.told < ladder.steps.count else { return ladder }
        let shift = now.timeIntervalSince(ladder.steps[ladder.told].at)
        for index in ladder.told..<ladder.steps.count { ladder.steps[index].at.addTimeInterval(shift) }
        return ladder
    }

    /// No silent skip: every delivery to the people of the step told last has failed (or they
    /// have none), so the next step is due now. `deliveries` are the incident's alert
    /// deliveries' recipients and whether each failed.
    public static func stepUnreachable(_ ladder: IncidentLadder, deliveries: [(recipient: UserID, failed: Bool)]) -> Bool {
        guard ladder.told > 0, ladder.told < ladder.steps.count else { return false }
        let members = Set(ladder.steps[ladder.told - 1].responders)
        let theirs = deliveries.filter { members.contains($0.recipient) }
        return theirs.allSatisfy(\.failed)
    }

    /// When the ladder is exhausted if nobody says "I'm on it" first: nil while steps are left
    /// or once it was.
    public static func exhaustAt(_ ladder: IncidentLadder) -> Date? {
        ladder.exhaustedAt == nil && ladder.told >= ladder.steps.count ? ladder.exhaustsAt : nil
    }

    /// When the engine must next look at an incident climbing `ladder`: the next step, the next
    /// repeat or the moment it is exhausted, whichever comes first.
    public static func nextActionAt(_ ladder: IncidentLadder) -> Date? {
        [ladder.nextStepAt, ladder.nextRepeatAt, exhaustAt(ladder)].compactMap { $0 }.min()
    }

    /// Where `responder` stands on `ladder` (of a person whose responders are `responders`, in
    /// her order), named by `name`: nil when the ladder tells everyone at once.
    public static func place(
        of responder: UserID, on ladder: Ladder, responders: [UserID], name: (UserID) -> String
    ) -> LadderPlace? {
        let snapshot = snapshot(
            ladder, responders: responders, openedAt: Date(timeIntervalSince1970: 0), climbs: true, repeatAt: nil, exhaustAfter: 0)
        guard snapshot.steps.count > 1, let index = snapshot.steps.firstIndex(where: { $0.responders.contains(responder) }) else {
            return nil
        }
        return LadderPlace(
            step: index + 1, steps: snapshot.steps.count, afterMinutes: Int(snapshot.steps[index].at.timeIntervalSince1970 / 60),
            before: snapshot.steps.prefix(index).flatMap(\.responders).map(name))
    }

    /// The people an alert opening now would tell first (and nobody skipped: a first step whose
    /// people are all gone gives way to the next).
    public static func firstStep(_ ladder: Ladder, responders: [UserID]) -> Set<UserID> {
        var climb = snapshot(
            ladder, responders: responders, openedAt: Date(timeIntervalSince1970: 0), climbs: true, repeatAt: nil, exhaustAfter: 0)
        climb.told = skippingEmpty(climb)
        return Set(climb.toldResponders)
    }
}
