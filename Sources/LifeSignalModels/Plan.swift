import Foundation

/// A one-off "check on me by 18:00" beside the person's rhythm: a headline ("Hiking the Rax
/// trail"), a time she expects to be back, and details sealed until she is late (route, car,
/// companions, medical needs).
///
/// The rhythm keeps running: a plan never pauses or moves it. If she is not back by `dueAt`
/// she is told at once, and after her grace period an incident of its own kind opens and
/// follows her escalation ladder; only then can a responder open the details.
public struct Plan: Identifiable, Codable, Hashable, Sendable {
    public var id: PlanID
    public var title: String
    public var startedAt: Date
    /// When she expects to be back; moved by each extension.
    public var dueAt: Date
    /// Sealed: shown to her, and to a responder only while the plan's incident is open (each
    /// opening recorded). Nil once erased: at once when cancelled, 30 days after it ended.
    public var details: String?
    /// What responders should do if she is late, and from when: "call mountain rescue 140"
    /// at 21:00. LifeSignal never calls anyone itself.
    public var instruction: String?
    public var instructionAt: Date?
    /// Whether her responders were told the headline when it started (else only if late).
    public var tellResponders: Bool
    public var state: State
    public var endedAt: Date?
    /// How often she moved `dueAt`.
    public var extensions: Int
    /// A long plan's rhythm: she checks in at least every this many hours (12–72) until it
    /// ends; nil for a plan with only its due time.
    public var checkInEveryHours: Int?
    /// The next check-in a long plan asks for, while it comes before `dueAt`; each of her own
    /// check-ins moves it on. Nil once only the due time is left (or for a plan without one).
    public var checkInBy: Date?

    public enum State: String, Codable, Hashable, Sendable, CaseIterable {
        /// Running, not yet due.
        case active
        /// Past due with no word from her: its incident is (or was) open.
        case overdue
        /// She said she is back.
        case done
        /// She called it off; its details were erased.
        case cancelled
    }

    public var isRunning: Bool { state == .active || state == .overdue }

    /// The time the plan's steps are about now: the next check-in it asks for, else its due time.
    public var stepDue: Date { checkInBy ?? dueAt }

    /// The check-in rhythms a long plan may ask for, in hours.
    public static let checkInHours = 12...72

    /// At most this many running plans per person.
    public static let activeLimit = 3
    /// A plan ends at most this long after it starts.
    public static let longest: TimeInterval = 14 * 86400
    /// The reminder to her goes this long before `dueAt`.
    public static let reminderLead: TimeInterval = 15 * 60
    /// The longest headline, detail text and instruction.
    public static let titleLimit = 80
    public static let detailsLimit = 2000
    public static let instructionLimit = 200
    /// An ended plan keeps its details this long, then only its headline and times.
    public static let detailsKeptAfterEnd: TimeInterval = 30 * 86400

    public init(
        id: PlanID, title: String, startedAt: Date, dueAt: Date, details: String? = nil, instruction: String? = nil,
        instructionAt: Date? = nil, tellResponders: Bool = true, state: State = .active, endedAt: Date? = nil, extensions: Int = 0,
        checkInEveryHours: Int? = nil, checkInBy: Date? = nil
    ) {
        self.checkInEveryHours = checkInEveryHours
        self.checkInBy = checkInBy
        self.id = id
        self.title = title
        self.startedAt = startedAt
        self.dueAt = dueAt
        self.details = details
        self.instruction = instruction
        self.instructionAt = instructionAt
        self.tellResponders = tellResponders
        self.state = state
        self.endedAt = endedAt
        self.extensions = extensions
    }

    /// The plan as a responder reads it on an incident: never its details (those are opened
    /// one at a time, recorded), only whether there are any.
    public var brief: PlanBrief {
        PlanBrief(
            id: id, title: title, startedAt: startedAt, dueAt: dueAt, hasDetails: !(details ?? "").isEmpty,
            instruction: instruction, instructionAt: instructionAt)
    }
}

public typealias PlanID = Identifier<Plan>

/// What a responder sees of a plan on its incident: the headline, the times, the instruction,
/// and whether sealed details can be opened.
public struct PlanBrief: Codable, Hashable, Sendable {
    public var id: PlanID
    public var title: String
    public var startedAt: Date
    public var dueAt: Date
    public var hasDetails: Bool
    public var instruction: String?
    public var instructionAt: Date?

    public init(
        id: PlanID, title: String, startedAt: Date, dueAt: Date, hasDetails: Bool, instruction: String?, instructionAt: Date?
    ) {
        self.id = id
        self.title = title
        self.startedAt = startedAt
        self.dueAt = dueAt
        self.hasDetails = hasDetails
        self.instruction = instruction
        self.instructionAt = instructionAt
    }
}

/// What a responder sees of a running plan she told them about: its headline and times. Never
/// its details or instruction (those come with an alert).
public struct PlanHeadline: Codable, Hashable, Sendable, Identifiable {
    public var id: PlanID
    public var title: String
    public var startedAt: Date
    public var dueAt: Date
    /// Overdue: she is late and its alert is open.
    public var isLate: Bool

    public init(id: PlanID, title: String, startedAt: Date, dueAt: Date, isLate: Bool) {
        self.id = id
        self.title = title
        self.startedAt = startedAt
        self.dueAt = dueAt
        self.isLate = isLate
    }
}

extension Plan {
    public var headline: PlanHeadline {
        PlanHeadline(id: id, title: title, startedAt: startedAt, dueAt: dueAt, isLate: state == .overdue)
    }
}
