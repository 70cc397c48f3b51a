import Foundation
import LifeSignalModels

/// The rules of plans ("check on me by 18:00"): what a plan may hold, how far it may be moved,
/// and its steps.
///
/// A plan's steps, for the time they are about (`stepDue`: the next check-in a long plan asks
/// for, else its `dueAt`) and the person's grace G:
/// 0. `stepDue − 15 min`: a reminder to her ("Back by 18:00? Reply LATER 1H or BACK") — only
///    when the plan started before that, and never after `stepDue`;
/// 1. `stepDue`: she is told she is late and who will be alerted;
/// 2. `stepDue + G`: the plan is overdue: its incident opens and climbs her ladder.
///
/// An extension moves `dueAt`, one of her check-ins moves a long plan's next check-in, and
/// either starts the steps again; "I'm back" ends them.
public enum PlanRule {
    public enum Step: Int, Sendable, Hashable, CaseIterable {
        case reminder = 0
        case late = 1
        case overdue = 2
    }

    /// What a plan is started with, checked and trimmed.
    public struct Draft: Sendable, Hashable {
        public var title: String
        public var dueAt: Date
        public var details: String?
        public var instruction: String?
        public var instructionAt: Date?
        public var checkInEveryHours: Int?
    }

    /// Checks a new plan: a headline of 1–80 characters, due after now and at most 14 days
    /// ahead, details under the sealed details' rules, an instruction of at most 200
    /// characters, its time (if any) no earlier than the due time and within the plan's span.
    public static func draft(
        title rawTitle: String, dueAt: Date, details: String?, instruction: String?, instructionAt: Date?,
        checkInEveryHours: Int? = nil, now: Date
    ) throws(ValidationError) -> Draft {
        let title = rawTitle.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...Plan.titleLimit).contains(title.count), title.utf8.count <= Plan.titleLimit * 4,
            !Text.containsControlCharacters(title)
        else { throw ValidationError(field: "title", key: "validation.plan.title") }
        try checkDue(dueAt, startedAt: now, now: now)
        let details = try details.map { raw throws(ValidationError) in
            do { return try Validation.sealedDetails(raw) } catch {
                throw ValidationError(field: "details", key: "validation.plan.details")
            }
        }
        let instruction = instruction?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let instruction {
            guard instruction.count <= Plan.instructionLimit, instruction.utf8.count <= Plan.instructionLimit * 4,
                !Text.containsControlCharacters(instruction)
            else { throw ValidationError(field: "instruction", key: "validation.plan.instruction") }
        }
        if let instructionAt {
            guard instructionAt >= dueAt, instructionAt <= now.addingTimeInterval(Plan.longest) else {
                throw ValidationError(field: "instructionAt", key: "validation.plan.instructionAt")
            }
        }
        if let hours = checkInEveryHours, !Plan.checkInHours.contains(hours) {
            throw ValidationError(field: "checkInEveryHours", key: "validation.plan.checkInEvery")
        }
        return Draft(
            title: title, dueAt: dueAt, details: details?.isEmpty == true ? nil : details,
            instruction: instruction?.isEmpty == true ? nil : instruction,
            instructionAt: instruction?.isEmpty == false ? instructionAt : nil, checkInEveryHours: checkInEveryHours)
    }

    /// A long plan's next check-in after one at `date` (or its start): `date` plus its rhythm,
    /// while that comes before its due time; nil when only the due time is left.
    public static func checkInBy(after date: Date, plan: Plan) -> Date? {
        guard let hours = plan.checkInEveryHours else { return nil }
        let next = date.addingTimeInterval(TimeInterval(hours * 3600))
        return next < plan.dueAt ? next : nil
    }

    /// A due time must be ahead of now and within 14 days of the plan's start.
    public static func checkDue(_ dueAt: Date, startedAt: Date, now: Date) throws(ValidationError) {
        guard dueAt > now else { throw ValidationError(field: "dueAt", key: "validation.plan.duePast") }
        guard dueAt <= startedAt.addingTimeInterval(Plan.longest) else {
            throw ValidationError(field: "dueAt", key: "validation.plan.dueFar")
        }
    }

    /// The extensions offered as buttons and by text: 30 minutes, 1 hour, 2 hours.
    public static let extensionPresets: [Int] = [30, 60, 120]

    /// The new due time of an extension by `minutes` (1 minute to 24 hours): from the current
    /// due time, or from now when she is already late (so "1 more hour" at 18:20 is 19:20).
    public static func extended(_ plan: Plan, byMinutes minutes: Int, now: Date) throws(ValidationError) -> Date {
        guard (1...1440).contains(minutes) else { throw ValidationError(field: "minutes", key: "validation.plan.minutes") }
        let due = max(plan.dueAt, now).addingTimeInterval(TimeInterval(minutes * 60))
        try checkDue(due, startedAt: plan.startedAt, now: now)
        return due
    }

    /// The steps due by `now` after `stepsDone` of them, in order. A reminder whose time went
    /// by unsent (no engine ran) is passed over once the plan is due: a reminder after the
    /// fact tells her nothing.
    public static func due(plan: Plan, stepsDone: Int, graceMinutes: Int, now: Date) -> (take: [Step], done: Int) {
        var take: [Step] = []
        var done = stepsDone
        for step in Step.allCases where step.rawValue >= stepsDone {
            guard at(step, plan: plan, graceMinutes: graceMinutes) <= now else { break }
            done = step.rawValue + 1
            if step == .reminder && (now >= plan.stepDue || !hasReminder(plan)) { continue }
            take.append(step)
        }
        return (take, done)
    }

    /// When the next step is due, or nil when none is left (or the plan has ended).
    public static func nextActionAt(plan: Plan, stepsDone: Int, graceMinutes: Int) -> Date? {
        guard plan.isRunning, let step = Step(rawValue: stepsDone) else { return nil }
        return at(step, plan: plan, graceMinutes: graceMinutes)
    }

    /// The steps done before any is due, for a plan (re)starting at `now`: a plan due within
    /// 15 minutes gets no reminder.
    public static func startingSteps(plan: Plan, now: Date) -> Int {
        hasReminder(plan) && plan.stepDue.addingTimeInterval(-Plan.reminderLead) > now ? 0 : Step.late.rawValue
    }

    static func hasReminder(_ plan: Plan) -> Bool {
        plan.stepDue.timeIntervalSince(plan.startedAt) > Plan.reminderLead
    }

    public static func at(_ step: Step, plan: Plan, graceMinutes: Int) -> Date {
        switch step {
        case .reminder: plan.stepDue.addingTimeInterval(-Plan.reminderLead)
        case .late: plan.stepDue
        case .overdue: plan.stepDue.addingTimeInterval(TimeInterval(graceMinutes * 60))
        }
    }
}

extension PlanRule {
    /// "1h", "30", "90 min", "2 hours": minutes, as a `LATER` text reads them; nil when unreadable.
    public static func minutes(_ text: String) -> Int? {
        TextCommand.minutes(TextCommand.words(text))
    }

    /// A due time as people type it: "18:00" (the next 18:00 on `zone`'s clock, today or
    /// tomorrow), "2026-12-01T18:00" (a wall-clock time on `zone`'s clock), or a full
    /// ISO 8601 instant. Nil when it is none of these.
    public static func time(_ text: String, after now: Date, zone: TimeZone) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let instant = ISODate.parse(text) { return instant }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = text.split(separator: "T", maxSplits: 1).map(String.init)
        guard let clock = parts.last.map(clockParts), let (hour, minute) = clock else { return nil }
        if parts.count == 2 {
            let day = parts[0].split(separator: "-").compactMap { Int($0) }
            guard day.count == 3 else { return nil }
            return calendar.date(
                from: DateComponents(year: day[0], month: day[1], day: day[2], hour: hour, minute: minute))
        }
        return calendar.nextDate(
            after: now, matching: DateComponents(hour: hour, minute: minute), matchingPolicy: .nextTime)
    }

    static func clockParts(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: ":").map(String.init)
        guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour),
            (0..<60).contains(minute), parts[1].count == 2
        else { return nil }
        return (hour, minute)
    }
}

/// "I'm OK, give me 2 more hours": one deadline moved later, before it comes, once.
public enum AddTimeRule {
    /// The presets the apps offer, in minutes.
    public static let presets = [60, 120]

    /// The time added to her next deadline: refused once it has passed (she checks in then),
    /// a second time for the same deadline, for more than one period of her rhythm, on a
    /// daily call (the call is the check-in) and when she only watches over others.
    public static func added(to user: User, minutes: Int, now: Date) throws(ValidationError) -> AddedTime {
        guard !user.watchOnly, user.schedule.dailyCall == nil else {
            throw ValidationError(field: "minutes", key: "validation.addTime.rhythm")
        }
        let rhythm = Deadline.ofRhythm(user)
        guard now < rhythm else { throw ValidationError(field: "minutes", key: "validation.addTime.late") }
        guard user.addedTime?.from != rhythm else { throw ValidationError(field: "minutes", key: "validation.addTime.once") }
        let most = mostMinutes(for: user)
        guard (1...most).contains(minutes) else {
            throw ValidationError(field: "minutes", key: "validation.addTime.minutes", ["hours": String(most / 60)])
        }
        return AddedTime(from: rhythm, until: rhythm.addingTimeInterval(TimeInterval(minutes * 60)))
    }

    /// The most she may add: up to her rhythm's next deadline after this one (a whole interval
    /// on a rolling rhythm; on a daily schedule with two times, the gap to the next), so added
    /// time never jumps over a deadline.
    public static func mostMinutes(for user: User) -> Int {
        let rhythm = Deadline.ofRhythm(user)
        return Int(Deadline.next(after: rhythm, schedule: user.schedule).timeIntervalSince(rhythm) / 60)
    }
}
