import Foundation
import LifeSignalModels

/// The daily schedule's rows in a rhythm form: up to four times (`time`, `time2` … `time4`;
/// an empty one is not used), each with a checkbox per weekday (`days1-mon` … `days4-sun`).
/// `dailyRows` marks a form that has the checkboxes: without it (an older page) every time is
/// every day. Plain fields, so the form works without JavaScript.
struct DailyTimesForm {
    struct Row {
        let number: Int
        let name: String
        let id: String
        let time: String
        let days: [Day]
    }

    struct Day {
        let name: String
        let id: String
        let label: String
        let checked: Bool
    }

    static func timeField(_ row: Int) -> String { row == 1 ? "time" : "time\(row)" }
    static func dayField(_ row: Int, _ weekday: Int) -> String { "days\(row)-\(DailyCall.weekdayNames[weekday - 1])" }

    /// The rows filled with `daily`'s times (09:00 every day without one), the rest empty.
    static func rows(_ daily: DailySchedule?) -> [Row] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = ReaderClock.current.words.locale
        let symbols = calendar.shortStandaloneWeekdaySymbols
        let times = daily?.times ?? [DailySchedule.Time(hour: 9, minute: 0)]
        return (1...DailySchedule.maximumTimes).map { row in
            let time = times.indices.contains(row - 1) ? times[row - 1] : nil
            return Row(
                number: row, name: timeField(row), id: row == 1 ? "daily-time" : "daily-time-\(row)", time: time?.time ?? "",
                days: (1...7).map { weekday in
                    Day(
                        name: dayField(row, weekday), id: "days-\(row)-\(DailyCall.weekdayNames[weekday - 1])",
                        label: symbols.indices.contains(weekday % 7) ? symbols[weekday % 7] : DailyCall.weekdayNames[weekday - 1],
                        checked: time?.weekdays.contains(weekday) ?? true)
                })
        }
    }

    /// The times a form asks for; nil when a time is not `HH:MM` or none is given.
    static func times(from form: [String: String]) -> [DailySchedule.Time]? {
        var times: [DailySchedule.Time] = []
        for row in 1...DailySchedule.maximumTimes {
            let text = (form[timeField(row)] ?? "").trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            let parts = text.split(separator: ":").compactMap { Int($0) }
            guard parts.count == 2 else { return nil }
            let weekdays =
                form["dailyRows"] == nil ? DailyCall.everyDay : Set((1...7).filter { form[dayField(row, $0)] != nil })
            times.append(DailySchedule.Time(hour: parts[0], minute: parts[1], weekdays: weekdays))
        }
        return times.isEmpty ? nil : times
    }

    /// The fields that send `daily` again as chosen (the confirmation page's hidden fields).
    static func hiddenFields(_ daily: DailySchedule) -> [HiddenField] {
        var fields = [HiddenField(name: "dailyRows", value: String(DailySchedule.maximumTimes))]
        for (index, time) in daily.times.enumerated() {
            fields.append(HiddenField(name: timeField(index + 1), value: time.time))
            fields += time.weekdays.sorted().map { HiddenField(name: dayField(index + 1, $0), value: "on") }
        }
        return fields
    }

    struct HiddenField {
        let name: String
        let value: String
    }
}
