import Foundation
import LifeSignalModels

/// A person's check-ins as CSV (RFC 4180): one header row, then one row per check-in, each
/// line ended by CRLF. Times are ISO 8601 in UTC; an empty field is a value that is not there
/// (no responder, no client clock, no device link).
public enum CheckInCSV {
    public static let header = ["id", "at", "source", "recorded_by", "client_at", "device"]

    public static func render(_ checkIns: [CheckIn]) -> String {
        var out = row(header)
        for checkIn in checkIns {
            out += row([
                checkIn.id.description, ISODate.format(checkIn.at), checkIn.source.rawValue,
                checkIn.recordedBy?.description ?? "", checkIn.clientAt.map(ISODate.format) ?? "", checkIn.device ?? "",
            ])
        }
        return out
    }

    public static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// One field: quoted when it holds a comma, a quote, a line break or spaces at its ends,
    /// with each quote doubled.
    public static func field(_ value: String) -> String {
        let needsQuotes =
            value.contains { $0 == "," || $0 == "\"" || $0.isNewline }
            || value.first?.isWhitespace == true || value.last?.isWhitespace == true
        guard needsQuotes else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// The names the export's files are offered under: `lifesignal-export-2026-11-21.json`, the
/// day in UTC.
public enum DataExportFile {
    public static func name(at date: Date, extension ext: String) -> String {
        "lifesignal-export-\(ISODate.format(date).prefix(10)).\(ext)"
    }

    public static func checkInsName(at date: Date) -> String {
        "lifesignal-check-ins-\(ISODate.format(date).prefix(10)).csv"
    }
}
