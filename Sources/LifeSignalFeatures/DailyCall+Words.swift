import Foundation
import LifeSignalLanguage
import LifeSignalModels

extension DailyCall {
    /// The rhythm in a line, as the picker and the check-in screen show it: "a call every day at
    /// 09:00 (Europe/London time) to your phone, tried up to 3 times" — the web's words, so both
    /// say the same — or, on fewer days, the days she chose.
    public func summary(_ w: Words) -> String {
        var arguments = ["time": time, "zone": timeZone, "number": number ?? w("web.rhythm.callOwnPhone")]
        guard weekdays != Self.everyDay else { return w("web.rhythm.callDaily", arguments, count: attempts) }
        arguments["days"] = w.list(weekdays.sorted().map { Self.dayName($0, w) })
        return w("app.rhythm.callDays", arguments, count: attempts)
    }

    /// "Monday" for 1 … "Sunday" for 7, in the reader's language.
    static func dayName(_ isoWeekday: Int, _ w: Words) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = w.locale
        // Foundation's week starts on Sunday: ISO 7 is its first symbol.
        return calendar.standaloneWeekdaySymbols[isoWeekday % 7]
    }
}
