import Foundation
import LifeSignalModels
import Logging

/// Writes one line per event, like swift-log's stream handler (`time level label: key=value
/// message`), but with every control character in the message and the metadata written as an
/// escape (`\n`, `\u{2028}`…). Words people typed reach the log (a name, a note in a
/// development message): a line break in them must never forge a line of its own, such as a
/// sign-in code's.
public struct TextLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info
    let label: String
    let sink: @Sendable (String) -> Void

    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.init(label: label, metadataProvider: metadataProvider, sink: JSONLogHandler.standardError)
    }

    /// `sink` receives each line, newline included.
    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil, sink: @escaping @Sendable (String) -> Void) {
        self.label = label
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
        sink(Self.line(time: Date(), level: event.level, label: label, message: "\(event.message)", metadata: merged))
    }

    static func line(time: Date, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata) -> String {
        let fields = metadata.sorted { $0.key < $1.key }.map { "\(escaped($0.key))=\(escaped($0.value.description))" }
        let meta = fields.isEmpty ? "" : " " + fields.joined(separator: " ")
        return "\(ISODate.format(time)) \(level) \(escaped(label)):\(meta) \(escaped(message))\n"
    }

    /// `text` with every control, line- or paragraph-separator character escaped.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where needsEscape(scalar): out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .format: scalar.value != 0x200D  // keep emoji joiners
        default: false
        }
    }
}
