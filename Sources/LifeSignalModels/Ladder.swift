import Foundation

/// Who is told, in what order, when a person misses a check-in: her responders in steps, each
/// step told a while after the one before unless someone has said "I'm on it" (`GET/PUT
/// /v1/me/ladder`).
///
/// Steps are cumulative: a later step's repeats still go to everyone told before. Responders
/// she has not placed on any step are told with the last one, so nobody is left out by an
/// edit she forgot to make.
public struct Ladder: Codable, Hashable, Sendable {
    public struct Step: Codable, Hashable, Sendable {
        /// The responders told at this step. Empty only on the last step: everyone not placed
        /// on an earlier one.
        public var responders: [UserID]
        /// Minutes after the step before (0 for the first, which is told when the alert opens).
        public var waitMinutes: Int

        public init(responders: [UserID], waitMinutes: Int) {
            self.responders = responders
            self.waitMinutes = waitMinutes
        }
    }

    public var steps: [Step]
    /// An SOS climbs the ladder like a missed check-in instead of telling every step at once.
    public var sosClimbs: Bool
    /// Counts saves, for optimistic concurrency: 0 for the default ladder, never saved.
    public var version: Int

    /// Everyone at once, as before there were ladders.
    public static let `default` = Ladder(steps: [Step(responders: [], waitMinutes: 0)], sosClimbs: false, version: 0)

    public init(steps: [Step], sosClimbs: Bool = false, version: Int = 0) {
        self.steps = steps
        self.sosClimbs = sosClimbs
        self.version = version
    }
}

/// The body of `PUT /v1/me/ladder`: the new ladder and the version it was made from.
public struct LadderChange: Codable, Hashable, Sendable {
    public var steps: [Ladder.Step]
    public var sosClimbs: Bool?
    /// The version this edit started from: a save over a newer one is refused (409).
    public var version: Int

    public init(steps: [Ladder.Step], sosClimbs: Bool? = nil, version: Int) {
        self.steps = steps
        self.sosClimbs = sosClimbs
        self.version = version
    }
}

/// The ladder an incident climbs: her ladder as it was when the incident opened, with every
/// step's responders named and its time fixed, and how far it has climbed.
public struct IncidentLadder: Codable, Hashable, Sendable {
    public struct Step: Codable, Hashable, Sendable {
        public var responders: [UserID]
        /// When this step is due (when the incident opened plus the waits before it).
        public var at: Date

        public init(responders: [UserID], at: Date) {
            self.responders = responders
            self.at = at
        }
    }

    public var steps: [Step]
    /// How many steps have been told (1 once the incident opened, all of them for an SOS).
    public var told: Int
    /// When the next repeat to everyone told is due; nil once the repeats are used up.
    public var nextRepeatAt: Date?
    /// When the ladder is exhausted if nobody has said "I'm on it" by then: set once its last
    /// step was told (again after a lapsed claim).
    public var exhaustsAt: Date?
    /// When nobody had said "I'm on it" after the last step: everyone was called.
    public var exhaustedAt: Date?

    public init(steps: [Step], told: Int, nextRepeatAt: Date? = nil, exhaustsAt: Date? = nil, exhaustedAt: Date? = nil) {
        self.steps = steps
        self.told = told
        self.nextRepeatAt = nextRepeatAt
        self.exhaustsAt = exhaustsAt
        self.exhaustedAt = exhaustedAt
    }

    /// Every responder on the steps told so far.
    public var toldResponders: [UserID] {
        var seen = Set<UserID>()
        return steps.prefix(told).flatMap(\.responders).filter { seen.insert($0).inserted }
    }

    /// Every responder on any step.
    public var everyone: Set<UserID> { Set(steps.flatMap(\.responders)) }

    /// When the next step is due, nil when every step was told.
    public var nextStepAt: Date? { told < steps.count ? steps[told].at : nil }
}

/// What a person sees of her ladder for her next deadline (`GET /v1/me/ladder/preview`): each
/// step's time in her zone and how each of its people can be reached.
public struct LadderPreview: Codable, Hashable, Sendable {
    public struct Member: Codable, Hashable, Sendable {
        public var userID: UserID
        public var name: String
        /// The channels an alert would go to, in order ("sms", "voice", "push"…).
        public var channels: [String]
        public var keyHolder: Bool

        public init(userID: UserID, name: String, channels: [String], keyHolder: Bool) {
            self.userID = userID
            self.name = name
            self.channels = channels
            self.keyHolder = keyHolder
        }
    }

    public struct Step: Codable, Hashable, Sendable {
        public var at: Date
        public var members: [Member]

        public init(at: Date, members: [Member]) {
            self.at = at
            self.members = members
        }
    }

    /// The deadline the preview is for; nil for someone with no deadline (watch-only).
    public var deadline: Date?
    public var steps: [Step]
    /// When everyone is called if nobody has said "I'm on it" by then.
    public var exhaustedAt: Date?
    /// The whole plan in the person's words and zone.
    public var sentence: String

    public init(deadline: Date?, steps: [Step], exhaustedAt: Date?, sentence: String) {
        self.deadline = deadline
        self.steps = steps
        self.exhaustedAt = exhaustedAt
        self.sentence = sentence
    }
}

/// Where I stand on the ladder of someone I watch over (on `Contact.ladderPlace`): told at once
/// or only if nobody has said "I'm on it" after the people before me.
public struct LadderPlace: Codable, Hashable, Sendable {
    /// My step (1-based) and how many her ladder has.
    public var step: Int
    public var steps: Int
    /// Minutes after her alert opens that my step is told.
    public var afterMinutes: Int
    /// The people on the steps before mine, in order.
    public var before: [String]

    public init(step: Int, steps: Int, afterMinutes: Int, before: [String]) {
        self.step = step
        self.steps = steps
        self.afterMinutes = afterMinutes
        self.before = before
    }
}
