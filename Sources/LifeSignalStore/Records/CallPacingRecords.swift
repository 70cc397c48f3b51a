import Foundation
import LifeSignalModels

/// People on a daily call at one time of day in one zone: how many share it.
public struct DailyCallTime: Hashable, Sendable {
    /// Minutes after midnight on her wall clock.
    public var minuteOfDay: Int
    /// IANA time zone name.
    public var timeZone: String
    public var people: Int

    public init(minuteOfDay: Int, timeZone: String, people: Int) {
        self.minuteOfDay = minuteOfDay
        self.timeZone = timeZone
        self.people = people
    }
}

extension StoreTransaction.DailyCalls {
    /// Everyone on a daily call, counted by the time and zone of the call: whose calls share a
    /// minute, and so the provider's rate, is found from these (zones apart can meet).
    public func times() async throws -> [DailyCallTime] {
        try await tx.db.query(
            """
            SELECT daily_minute, time_zone, COUNT(*) AS n FROM users WHERE schedule_kind = 'daily_call'
            GROUP BY daily_minute, time_zone ORDER BY daily_minute, time_zone
            """
        ).map {
            DailyCallTime(minuteOfDay: try $0.int("daily_minute"), timeZone: try $0.string("time_zone"), people: try $0.int("n"))
        }
    }
}
