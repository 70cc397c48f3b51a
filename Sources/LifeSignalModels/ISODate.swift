import Foundation

/// ISO 8601 timestamps in UTC with milliseconds (`2026-11-21T09:30:00.000Z`), the one
/// format LifeSignal writes dates in: JSON, timelines, logs.
public enum ISODate {
    // Formatted by hand: Foundation's formatters are not Sendable and cost microseconds each,
    // and so does `String(format:)` (this runs for every date in every JSON response).
    public static func format(_ date: Date) -> String {
        let totalMillis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let millis = Int(((totalMillis % 1000) + 1000) % 1000)
        var seconds = time_t((totalMillis - Int64(millis)) / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var out: [UInt8] = []
        out.reserveCapacity(24)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var value = value
            if value >= divisor * 10 {
                // A year past 9999: every digit, like %04d.
                out.append(contentsOf: String(value).utf8)
                return
            }
            while divisor > 0 {
                out.append(UInt8(48 + value / divisor))
                value %= divisor
                divisor /= 10
            }
        }
        let year = Int(parts.tm_year) + 1900
        if year < 0 {
            out.append(45)
            digits(-year, 3)
        } else {
            digits(year, 4)
        }
        out.append(45)
        digits(Int(parts.tm_mon) + 1, 2)
        out.append(45)
        digits(Int(parts.tm_mday), 2)
        out.append(84)
        digits(Int(parts.tm_hour), 2)
        out.append(58)
        digits(Int(parts.tm_min), 2)
        out.append(58)
        digits(Int(parts.tm_sec), 2)
        out.append(46)
        digits(millis, 3)
        out.append(90)
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff][Z|±HH:MM]`.
    public static func parse(_ text: String) -> Date? {
        let c = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= c.count else { return nil }
            var value = 0
            for i in range {
                guard c[i] >= 48, c[i] <= 57 else { return nil }
                value = value * 10 + Int(c[i] - 48)
            }
            return value
        }
        guard c.count >= 20, c[4] == 45, c[7] == 45, c[10] == 84 || c[10] == 116, c[13] == 58, c[16] == 58,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if c[index] == 46 {
            var scale = 0.1
            index += 1
            while index < c.count, c[index] >= 48, c[index] <= 57 {
                fraction += Double(c[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        guard index < c.count else { return nil }
        var offset = 0
        if c[index] == 90 || c[index] == 122 {
            guard index + 1 == c.count else { return nil }
        } else if c[index] == 43 || c[index] == 45 {
            guard index + 6 == c.count, c[index + 3] == 58, let h = number(index + 1..<index + 3),
                let m = number(index + 4..<index + 6)
            else { return nil }
            offset = (h * 3600 + m * 60) * (c[index] == 45 ? -1 : 1)
        } else {
            return nil
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let epoch = timegm(&parts)
        return Date(timeIntervalSince1970: Double(epoch - offset) + fraction)
    }
}
