import Foundation
import LifeSignalModels
import Logging
import Synchronization

/// How `lifesignal serve` writes its log: `text` (swift-log's stream handler) or `json`.
public enum LogFormat: String, Sendable, CaseIterable {
    case text, json

    /// Makes every logger of the process write in this format to standard error (where
    /// swift-log writes by default). Once per process (swift-log's bootstrap is process-wide).
    public func bootstrap() {
        switch self {
        case .text: LoggingSystem.bootstrap { LineLogHandler(label: $0, format: .text) }
        case .json: LoggingSystem.bootstrap { LineLogHandler(label: $0, format: .json) }
        }
    }
}

/// Writes one line per event, whole lines only, in either format:
/// - `json`: one object per line: `time` (ISO 8601, UTC, milliseconds), `level`, `label`,
///   `message`, then the metadata flattened into the same object (a key that would shadow one
///   of those four is prefixed `meta_`). Nested metadata becomes JSON arrays and objects.
/// - `text`: `time level label: key=value message`, every control character escaped
///   (`LineLogHandler+Text.swift`).
///
/// Words people typed reach the log (a name, a note in a development message): in neither
/// format can a line break in them forge a line of its own, such as a sign-in code's.
public struct LineLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info
    let label: String
    let format: LogFormat
    let sink: @Sendable (String) -> Void

    public init(label: String, format: LogFormat, metadataProvider: Logger.MetadataProvider? = nil) {
        self.init(label: label, format: format, metadataProvider: metadataProvider, sink: LineLogHandler.standardError)
    }

    /// `sink` receives each line, newline included.
    public init(
        label: String, format: LogFormat, metadataProvider: Logger.MetadataProvider? = nil,
        sink: @escaping @Sendable (String) -> Void
    ) {
        self.label = label
        self.format = format
        self.metadataProvider = metadataProvider
        self.sink = sink
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        if let error = event.error { merged["error"] = .string(String(describing: error)) }
        let (time, message) = (Date(), "\(event.message)")
        sink(
            format == .json
                ? Self.jsonLine(time: time, level: event.level, label: label, message: message, metadata: merged)
                : Self.textLine(time: time, level: event.level, label: label, message: message, metadata: merged))
    }

    static func jsonLine(time: Date, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata) -> String {
        var object: [String: Any] = [
            "time": timestamp(time), "level": level.rawValue, "label": label, "message": message,
        ]
        for (key, value) in metadata {
            object[object[key] == nil ? key : "meta_" + key] = json(value)
        }
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data(#"{"message":"unencodable log line"}"#.utf8)
        // JSON leaves U+2028 and U+2029 as they are; some log viewers break lines on them.
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\u{2028}", with: "\\u2028")
            .replacingOccurrences(of: "\u{2029}", with: "\\u2029") + "\n"
    }

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case let .string(text): text
        case let .stringConvertible(convertible): convertible.description
        case let .array(values): values.map(json)
        case let .dictionary(values): values.mapValues(json)
        }
    }

    private static func timestamp(_ date: Date) -> String { ISODate.format(date) }

    /// Whole lines under a lock, so lines of concurrent loggers never interleave.
    static let standardError: @Sendable (String) -> Void = { line in
        outputLock.withLock { _ in
            var bytes = Array(line.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
                if written <= 0 { break }
                offset += written
            }
        }
    }

    private static let outputLock = Mutex(())
}
