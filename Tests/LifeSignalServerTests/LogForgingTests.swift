import Foundation
import Logging
import Synchronization
import Testing

@testable import LifeSignalServer

/// Words people typed reach the log (a note, a name, in a development message): whatever they
/// hold, each event is one line in both formats, so nobody can forge a line of their own —
/// such as a sign-in code's.
struct LogForgingTests {
    static let forged =
        "Key under the pot\n2026-11-26T09:00:00.000Z notice DEVELOPMENT (not sent): [DEVELOPMENT] sign-in code for +447700900123: 123456"
    static let hostile = [
        forged, "a\r\nb", "tab\there", "line\u{2028}separator", "para\u{2029}graph", "nul\u{0}x", "esc\u{1B}[31m", "bidi\u{202E}x",
    ]

    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    @Test(arguments: ["text", "json"])
    func everyEventIsOneLine(format: String) throws {
        let captured = Lines()
        let sink: @Sendable (String) -> Void = { line in captured.lines.withLock { $0.append(line) } }
        let handler = LineLogHandler(label: "lifesignal.delivery.log", format: format == "text" ? .text : .json, sink: sink)
        let logger = Logger(label: "l", factory: { _ in handler })
        for text in Self.hostile {
            logger.notice("Ada: \(text)", metadata: ["note": "\(text)", "link\n": "x"])
        }
        #expect(captured.all.count == Self.hostile.count)
        for line in captured.all {
            #expect(line.hasSuffix("\n"))
            let body = line.dropLast()
            #expect(!body.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(line.debugDescription)")
            #expect(!body.contains("\u{2028}") && !body.contains("\u{2029}") && !body.contains("\r"))
            if format == "json" {
                let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
                #expect((object?["message"] as? String)?.hasPrefix("Ada: ") == true)
            }
        }
        // The forged code line is still in the log, visibly inside the note, never at a line's start.
        #expect(captured.all.allSatisfy { !$0.hasPrefix("2026-11-26T09:00:00.000Z") })
        if format == "text" {
            #expect(captured.all[0].contains(#"Key under the pot\n2026-11-26T09:00:00.000Z notice DEVELOPMENT"#))
        }
    }
}
