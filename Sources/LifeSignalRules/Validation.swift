import Foundation
import LifeSignalLanguage
import LifeSignalModels

/// A rejected input: which field, and a sentence fit to show the person.
public struct ValidationError: Error, Hashable, Sendable {
    public var field: String
    /// The sentence in English (the API's error message).
    public var message: String
    /// The catalogue's key for the sentence, and its arguments, when it has one.
    public var key: String?
    public var arguments: [String: String] = [:]

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// A rule's refusal in the catalogue's words (`message` is its English).
    public init(field: String, key: String, _ arguments: [String: String] = [:]) {
        self.field = field
        self.key = key
        self.arguments = arguments
        self.message = Words.english(key, arguments)
    }

    /// The sentence in `words`' language: the catalogue's when the refusal has a key, else
    /// the English message.
    public func message(in words: Words) -> String {
        key.map { words($0, arguments) } ?? message
    }
}

/// Input rules shared by the server and the apps.
public enum Validation {
    public static let intervalRange = 3600...(7 * 86400)
    public static let graceRange = 0...60
    public static let noteLimit = 500
    public static let avatarLimit = 1 << 20

    /// Limits on a first or last name: characters as a person counts them, bytes as storage
    /// and notification titles count them, and combining marks stacked on one letter.
    public static let nameCharacters = 2...50
    public static let nameByteLimit = 200
    public static let combiningMarkLimit = 3
    public static let noteByteLimit = 2000

    /// Trims and checks a first or last name: 2–50 letters, spaces, `-` or `'`, at most 200
    /// UTF-8 bytes, at most 3 combining marks in a row, no control characters or line breaks.
    public static func name(_ raw: String, field: String) throws(ValidationError) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !Text.containsControlCharacters(name) else {
            throw ValidationError(field: field, key: "validation.name.control")
        }
        guard nameCharacters.contains(name.count), name.utf8.count <= nameByteLimit else {
            throw ValidationError(field: field, key: "validation.name.length")
        }
        guard Text.longestCombiningRun(name) <= combiningMarkLimit else {
            throw ValidationError(field: field, key: "validation.name.accents", ["limit": String(combiningMarkLimit)])
        }
        let allowed = CharacterSet.letters.union(.init(charactersIn: " -'’")).union(.nonBaseCharacters)
        guard name.unicodeScalars.allSatisfy(allowed.contains), name.contains(where: \.isLetter) else {
            throw ValidationError(field: field, key: "validation.name.letters")
        }
        return name
    }

    /// Trims a short label a person gives an API token or a device link ("Home Assistant",
    /// "Front door button"): 1–60 characters, at most 240 UTF-8 bytes, no control characters.
    /// Nil when it is not one; the caller says which label was refused.
    public static func label(_ raw: String) -> String? {
        let label = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...60).contains(label.count), label.utf8.count <= 240,
            !label.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return label
    }

    /// Normalises a phone number to E.164: `+` then 8 to 15 digits, spaces, dots, dashes and brackets dropped.
    public static func phone(_ raw: String) throws(ValidationError) -> String {
        let stripped = raw.filter { !" .-()\u{00A0}".contains($0) }
        let digits = stripped.dropFirst()
        guard stripped.first == "+", (8...15).contains(digits.count),
            digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.first != "0"
        else {
            throw ValidationError(field: "phone", key: "validation.phone")
        }
        return stripped
    }

    /// Trims and checks the emergency note: at most 500 characters and 2,000 UTF-8 bytes;
    /// line breaks (CR LF becomes LF) and tabs are kept, other control characters refused.
    public static func emergencyNote(_ raw: String) throws(ValidationError) -> String {
        try note(
            raw, field: "emergencyNote", limit: noteLimit, byteLimit: noteByteLimit,
            refusals: ("validation.note.control", "validation.note.length", "validation.note.accents"))
    }

    /// Trims and checks sealed details (door code, key, medication, pets, doctor): at most
    /// 2,000 characters and 8,000 UTF-8 bytes, with the emergency note's other rules.
    public static func sealedDetails(_ raw: String) throws(ValidationError) -> String {
        try note(
            raw, field: "sealedDetails", limit: sealedLimit, byteLimit: sealedByteLimit,
            refusals: ("validation.sealed.control", "validation.sealed.length", "validation.sealed.accents"))
    }

    /// A call-in PIN: exactly four digits, or empty (remove it).
    public static func callInPin(_ pin: String) throws(ValidationError) -> String {
        guard pin.isEmpty || (pin.count == 4 && pin.allSatisfy { $0.isASCII && $0.isNumber }) else {
            throw ValidationError(field: "callInPin", key: "validation.callInPin")
        }
        return pin
    }

    public static let sealedLimit = 2_000
    static let sealedByteLimit = 8_000

    private static func note(
        _ raw: String, field: String, limit: Int, byteLimit: Int, refusals: (control: String, length: String, accents: String)
    ) throws(ValidationError) -> String {
        let note = raw.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !Text.containsControlCharacters(note, allowing: ["\n", "\t"]) else {
            throw ValidationError(field: field, key: refusals.control)
        }
        // Counted as written, too, in code points as the API's `maxLength` counts them: "\r\n"
        // is one Swift character but two code points.
        guard note.count <= limit, raw.unicodeScalars.count <= limit, note.utf8.count <= byteLimit else {
            throw ValidationError(field: field, key: refusals.length)
        }
        guard Text.longestCombiningRun(note) <= combiningMarkLimit else {
            throw ValidationError(field: field, key: refusals.accents, ["limit": String(combiningMarkLimit)])
        }
        return note
    }

    /// What a code field keeps of what was typed or pasted: ASCII digits, at most six
    /// ("12 34-567" → "123456").
    public static func typedCode(_ raw: String) -> String {
        String(raw.filter { $0.isASCII && $0.isNumber }.prefix(6))
    }

    public static func code(_ raw: String) throws(ValidationError) -> String {
        let code = raw.trimmingCharacters(in: .whitespaces)
        guard code.count == 6, code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ValidationError(field: "code", key: "validation.code")
        }
        return code
    }

    /// Checks a schedule together with the reminders that must fit inside it.
    public static func schedule(_ schedule: CheckInSchedule, reminders: ReminderChoice) throws(ValidationError) {
        switch schedule {
        case let .interval(seconds):
            guard intervalRange.contains(seconds) else {
                throw ValidationError(field: "schedule", key: "validation.interval")
            }
        case let .daily(daily):
            try dailyTimes(daily)
        case let .dailyCall(call):
            guard (0...23).contains(call.hour), (0...59).contains(call.minute) else {
                throw ValidationError(field: "schedule", key: "validation.dailyTime")
            }
            guard TimeZone(identifier: call.timeZone) != nil else {
                throw ValidationError(field: "schedule", key: "validation.timeZone", ["zone": call.timeZone])
            }
            guard DailyCall.attemptRange.contains(call.attempts) else {
                throw ValidationError(field: "schedule", key: "validation.dailyCall.attempts")
            }
            guard DailyCall.retryRange.contains(call.retryMinutes) else {
                throw ValidationError(field: "schedule", key: "validation.dailyCall.retry")
            }
            guard !call.weekdays.isEmpty, call.weekdays.isSubset(of: DailyCall.everyDay) else {
                throw ValidationError(field: "schedule", key: "validation.dailyCall.weekdays")
            }
            // The reminders are the calls themselves: no reminder is checked against it.
            return
        }
        if let longest = reminders.leadSeconds.max(), longest >= schedule.nominalSeconds {
            throw ValidationError(field: "reminders", key: "validation.reminder")
        }
    }

    /// A daily schedule: 1–4 distinct times, each a real time on at least one day, at least
    /// ``DailySchedule/minimumGapMinutes`` apart over the week, in a known zone.
    static func dailyTimes(_ daily: DailySchedule) throws(ValidationError) {
        guard (1...DailySchedule.maximumTimes).contains(daily.times.count) else {
            throw ValidationError(field: "schedule", key: "validation.dailyTimes.count")
        }
        for time in daily.times {
            guard (0...23).contains(time.hour), (0...59).contains(time.minute) else {
                throw ValidationError(field: "schedule", key: "validation.dailyTime")
            }
            guard !time.weekdays.isEmpty, time.weekdays.isSubset(of: DailyCall.everyDay) else {
                throw ValidationError(field: "schedule", key: "validation.dailyTimes.weekdays", ["time": time.time])
            }
        }
        guard Set(daily.times.map(\.minuteOfDay)).count == daily.times.count else {
            throw ValidationError(field: "schedule", key: "validation.dailyTimes.distinct")
        }
        if let gap = daily.shortestGapMinutes, gap < DailySchedule.minimumGapMinutes {
            throw ValidationError(field: "schedule", key: "validation.dailyTimes.gap")
        }
        guard TimeZone(identifier: daily.timeZone) != nil else {
            throw ValidationError(field: "schedule", key: "validation.timeZone", ["zone": daily.timeZone])
        }
    }

    public static func grace(_ minutes: Int) throws(ValidationError) {
        guard graceRange.contains(minutes) else {
            throw ValidationError(field: "graceMinutes", key: "validation.grace")
        }
    }

    /// A pause: it starts now or later (within ``Pause/furthestStart``), and ends after it
    /// starts, at most ``Pause/longest`` later. A start a minute in the past counts as now
    /// (a form filled in slowly).
    public static func pause(from: Date, until: Date, now: Date) throws(ValidationError) {
        guard from >= now.addingTimeInterval(-60), from <= now.addingTimeInterval(Pause.furthestStart) else {
            throw ValidationError(field: "from", key: "validation.pauseFrom")
        }
        guard until > max(from, now), until <= from.addingTimeInterval(Pause.longest) else {
            throw ValidationError(field: "until", key: "validation.pause")
        }
    }

    /// The image kind of an avatar, from its bytes: PNG or JPEG, at most 1 MiB.
    public static func avatar(_ bytes: [UInt8]) throws(ValidationError) -> String {
        guard !bytes.isEmpty, bytes.count <= avatarLimit else {
            throw ValidationError(field: "avatar", key: "validation.avatar")
        }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if bytes.starts(with: png), bytes.count > 24, Array(bytes[12..<16]) == Array("IHDR".utf8) {
            return "image/png"
        }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]), bytes.suffix(2) == [0xFF, 0xD9] {
            return "image/jpeg"
        }
        throw ValidationError(field: "avatar", key: "validation.avatar")
    }

    /// A contact code: 32 hex characters, also accepted inside a `lifesignal://contact/<code>` link.
    public static func contactCode(_ raw: String) throws(ValidationError) -> String {
        var code = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if let range = code.range(of: "contact/") { code = String(code[range.upperBound...]) }
        code = code.filter { $0 != "-" && $0 != " " }
        guard code.count == 32, code.allSatisfy(\.isHexDigit) else {
            throw ValidationError(field: "code", key: "validation.contactCode")
        }
        return code
    }
}

/// Checks on text a person types that other people will see, in titles, logs and headers.
public enum Text {
    /// Whether `text` holds a control character (C0, DEL, C1), a line or paragraph separator, or
    /// a bidirectional override that could make text read differently from what it is.
    /// `allowing` lists scalars that are fine here (a note keeps `\n`).
    public static func containsControlCharacters(_ text: String, allowing: Set<Unicode.Scalar> = []) -> Bool {
        text.unicodeScalars.contains { scalar in
            guard !allowing.contains(scalar) else { return false }
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return true
            default: return (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            }
        }
    }

    /// `text` made safe to store and show where refusing it would be unhelpful (a device name
    /// sent by an app): control characters, separators and bidi overrides become spaces, marks
    /// beyond ``Validation/combiningMarkLimit`` in a row are dropped, and the result is cut at a
    /// character boundary to at most `characters` characters and `bytes` UTF-8 bytes.
    public static func clipped(_ text: String, characters: Int, bytes: Int) -> String {
        var scalars = String.UnicodeScalarView()
        var run = 0
        for scalar in text.unicodeScalars {
            if containsControlCharacters(String(scalar)) {
                scalars.append(" ")
                run = 0
                continue
            }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark:
                run += 1
                if run > Validation.combiningMarkLimit { continue }
            default:
                run = 0
            }
            scalars.append(scalar)
        }
        var result = ""
        var used = 0
        for character in String(scalars).trimmingCharacters(in: .whitespaces) {
            let size = character.utf8.count
            guard result.count < characters, used + size <= bytes else { break }
            result.append(character)
            used += size
        }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// The most combining marks (Mn, Mc, Me) that follow one another anywhere in `text`.
    public static func longestCombiningRun(_ text: String) -> Int {
        var longest = 0, run = 0
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark:
                run += 1
                longest = max(longest, run)
            default:
                run = 0
            }
        }
        return longest
    }
}
