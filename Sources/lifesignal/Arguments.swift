import ArgumentParser
import Foundation
import LifeSignalAPI
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// `HH:MM` and a time zone as the rhythm commands take them.
enum ClockArgument {
    static func parse(_ time: String) throws -> (hour: Int, minute: Int) {
        let parts = time.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2, (0...23).contains(parts[0]), (0...59).contains(parts[1]) else {
            throw ValidationError(Formatting.words("cli.rhythm.badTime", ["time": time]))
        }
        return (parts[0], parts[1])
    }

    /// `zone`, or this computer's, when it is a zone the system knows.
    static func zone(_ zone: String?) throws -> String {
        let zone = zone ?? TimeZone.current.identifier
        guard TimeZone(identifier: zone) != nil else {
            throw ValidationError(Formatting.words("cli.rhythm.badZone", ["zone": zone]))
        }
        return zone
    }
}

/// `8h`, `2d`, `1d12h`, `90m` to seconds, and back.
enum DurationArgument {
    static func seconds(_ text: String) -> Int? {
        var total = 0
        var number = ""
        var sawUnit = false
        for character in text.lowercased() {
            if character.isNumber {
                number.append(character)
                continue
            }
            let unit: Int? =
                switch character {
                case "m": 60
                case "h": 3600
                case "d": 86400
                case "w": 7 * 86400
                default: nil
                }
            guard let unit, let value = Int(number) else { return nil }
            total += value * unit
            number = ""
            sawUnit = true
        }
        guard number.isEmpty, sawUnit, total > 0 else { return nil }
        return total
    }

    static func text(_ seconds: Int) -> String {
        var parts: [String] = []
        if seconds / 86400 > 0 { parts.append("\(seconds / 86400)d") }
        if seconds % 86400 / 3600 > 0 { parts.append("\(seconds % 86400 / 3600)h") }
        if seconds % 3600 / 60 > 0 { parts.append("\(seconds % 3600 / 60)m") }
        return parts.isEmpty ? "\(seconds)s" : parts.joined()
    }
}

/// `2026-12-24` (the start of that day in this computer's time zone) or an ISO 8601 date-time.
enum DateArgument {
    static func parse(_ text: String) -> Date? {
        if let date = ISODate.parse(text) { return date }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, text.count == 10 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let components = DateComponents(year: parts[0], month: parts[1], day: parts[2])
        guard let date = calendar.date(from: components) else { return nil }
        let back = calendar.dateComponents([.year, .month, .day], from: date)
        guard [back.year, back.month, back.day] == parts.map(Optional.some) else { return nil }
        return date
    }
}

/// Days as the rhythm commands take them: `mon,tue`, `mon-fri`, `sat,sun`, `fri-mon` (ranges
/// wrap past Sunday); ISO numbers out (1 Monday … 7 Sunday).
enum WeekdayArgument {
    static func parse(_ text: String) throws -> Set<Int> {
        var days: Set<Int> = []
        func day(_ name: Substring) throws -> Int {
            let name = name.trimmingCharacters(in: .whitespaces).lowercased()
            guard let index = DailyCall.weekdayNames.firstIndex(of: name) else {
                throw ValidationError(Formatting.words("cli.rhythm.badDays", ["days": text]))
            }
            return index + 1
        }
        for part in text.split(separator: ",") {
            let ends = part.split(separator: "-", maxSplits: 1)
            var from = try day(ends[0])
            let to = ends.count == 2 ? try day(ends[1]) : from
            days.insert(from)
            while from != to {
                from = from % 7 + 1
                days.insert(from)
            }
        }
        guard !days.isEmpty else { throw ValidationError(Formatting.words("cli.rhythm.badDays", ["days": text])) }
        return days
    }
}
