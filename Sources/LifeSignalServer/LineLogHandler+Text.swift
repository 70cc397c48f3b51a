import Foundation
import LifeSignalModels
import Logging

/// The text format: one line per event, like swift-log's stream handler (`time level label:
/// key=value message`), with every control character in the message and the metadata written
/// as an escape (`\n`, `\u{2028}`…).
extension LineLogHandler {
    static func textLine(time: Date, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata) -> String {
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
