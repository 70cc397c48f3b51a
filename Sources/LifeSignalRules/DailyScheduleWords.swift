import Foundation
import LifeSignalLanguage
import LifeSignalModels

/// A daily schedule in the reader's words: "by 09:30 and by 21:30 every day; by 11:00 on
/// Sundays". Times that share their days are said together, in the order of their first time.
public enum DailyScheduleWords {
    public static func text(_ daily: DailySchedule, words: Words) -> String {
        var groups: [(days: Set<Int>, times: [String])] = []
        for time in daily.times {
            let by = words("schedule.daily.by", ["time": time.time])
            if let index = groups.firstIndex(where: { $0.days == time.weekdays }) {
                groups[index].times.append(by)
            } else {
                groups.append((time.weekdays, [by]))
            }
        }
        let parts = groups.map { group in
            let times = words.list(group.times)
            if group.days == DailyCall.everyDay { return words("schedule.daily.everyDay", ["times": times]) }
            return words("schedule.daily.onDays", ["times": times, "days": days(group.days, words: words)])
        }
        return parts.dropFirst().reduce(parts.first ?? "") { words("schedule.daily.then", ["first": $0, "next": $1]) }
    }

    /// "on weekdays", "at weekends", "from Monday to Saturday", "on Mondays and on Fridays" (with
    /// the preposition or article the language wants).
    public static func days(_ days: Set<Int>, words: Words) -> String {
        if days == Set(1...5) { return words("schedule.days.workdays") }
        if days == [6, 7] { return words("schedule.days.weekend") }
        let sorted = days.sorted()
        if sorted.count >= 3, let first = sorted.first, let last = sorted.last, last - first == sorted.count - 1 {
            var calendar = Calendar(identifier: .gregorian)
            calendar.locale = words.locale
            let names = calendar.standaloneWeekdaySymbols  // Sunday first
            return words("schedule.days.range", ["from": names[first % 7], "to": names[last % 7]])
        }
        return words.list(sorted.map { words(dayKeys[$0 - 1]) })
    }

    /// The catalogue's days as said in a schedule ("on Mondays", "montags"), ISO order.
    public static let dayKeys = [
        "schedule.day.1", "schedule.day.2", "schedule.day.3", "schedule.day.4", "schedule.day.5", "schedule.day.6",
        "schedule.day.7",
    ]
}
