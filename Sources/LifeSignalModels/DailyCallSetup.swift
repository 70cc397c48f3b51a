import Foundation

/// "Set up daily calls for Mum": a signed-in person asks LifeSignal to call someone every day
/// and to tell them when she does not answer. Nothing runs until she says yes on the first
/// call ("Press 1 to agree, press 2 to say no"); her yes makes the asker her responder.
public struct DailyCallSetup: Identifiable, Codable, Hashable, Sendable {
    public var id: DailyCallSetupID
    /// Her account, made for the calls; nil once it is gone (she said no, or never answered).
    public var personID: UserID?
    /// Who asked: told of her answer, and her responder when she agrees.
    public var requestedBy: UserID
    /// Her name as the asker gave it.
    public var name: String
    public var phone: String
    /// `HH:MM` of her daily call, in `timeZone`.
    public var time: String
    public var timeZone: String
    public var status: Status
    /// How many consent calls were placed.
    public var tries: Int
    /// When the next consent call rings; nil once she answered or the tries ran out.
    public var nextCallAt: Date?
    public var createdAt: Date
    public var answeredAt: Date?

    public enum Status: String, Codable, Hashable, Sendable, CaseIterable {
        /// Waiting for her answer on a consent call.
        case pending
        /// She pressed 1: the daily calls run, the asker is her responder.
        case agreed
        /// She pressed 2: nothing runs, her account is gone.
        case declined
        /// Three consent calls went unanswered: nothing runs, her account is gone.
        case unanswered
        /// The asker took it back before she answered.
        case cancelled
    }

    /// How many consent calls are placed before it ends unanswered, and how far apart.
    public static let consentTries = 3
    public static let consentRetryMinutes = 15

    public init(
        id: DailyCallSetupID, personID: UserID?, requestedBy: UserID, name: String, phone: String, time: String,
        timeZone: String, status: Status, tries: Int, nextCallAt: Date?, createdAt: Date, answeredAt: Date? = nil
    ) {
        self.id = id
        self.personID = personID
        self.requestedBy = requestedBy
        self.name = name
        self.phone = phone
        self.time = time
        self.timeZone = timeZone
        self.status = status
        self.tries = tries
        self.nextCallAt = nextCallAt
        self.createdAt = createdAt
        self.answeredAt = answeredAt
    }
}
