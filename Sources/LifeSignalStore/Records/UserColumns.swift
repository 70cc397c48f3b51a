import Foundation
import LifeSignalModels

/// What `users.daily_call` holds: the parts of a daily call its other columns do not.
struct DailyCallColumn: Codable, Hashable {
    var attempts: Int
    var retryMinutes: Int
    var weekdays: [Int]
    var number: String?

    init(_ call: DailyCall) {
        attempts = call.attempts
        retryMinutes = call.retryMinutes
        weekdays = call.weekdays.sorted()
        number = call.number
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    static func decode(_ json: String) throws -> DailyCallColumn {
        try JSONDecoder().decode(DailyCallColumn.self, from: Data(json.utf8))
    }
}

/// `users.pauses`: her pauses as JSON, times in milliseconds; null when she has none.
enum PauseColumn {
    static func json(_ pauses: [Pause]) -> String? {
        guard !pauses.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return String(decoding: (try? encoder.encode(pauses)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// A pause carried over from the single pause of old has no setter's name: it was hers.
    static func decode(_ json: String, owner: UserID, ownerName: String) throws -> [Pause] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try decoder.decode([Pause].self, from: Data(json.utf8)).map { pause in
            var pause = pause
            if pause.setByName.isEmpty, pause.setBy == owner { pause.setByName = ownerName }
            return pause
        }
    }
}

/// One entry of `users.daily_times`: a time (minutes after midnight) and its ISO weekdays.
struct DailyTimeColumn: Codable, Hashable {
    var minute: Int
    var weekdays: [Int]

    static func json(_ times: [DailySchedule.Time]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let rows = times.map { DailyTimeColumn(minute: $0.minuteOfDay, weekdays: $0.weekdays.sorted()) }
        return String(decoding: (try? encoder.encode(rows)) ?? Data("[]".utf8), as: UTF8.self)
    }

    static func decode(_ json: String) throws -> [DailySchedule.Time] {
        try JSONDecoder().decode([DailyTimeColumn].self, from: Data(json.utf8)).map {
            DailySchedule.Time(hour: $0.minute / 60, minute: $0.minute % 60, weekdays: Set($0.weekdays))
        }
    }
}
