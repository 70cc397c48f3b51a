import Foundation
import LifeSignalAPI

/// Where the client commands write: results on stdout, messages and prompts on stderr, so
/// `--json` output can be piped.
enum Terminal {
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Asks on stderr and reads one line of stdin; nil at end of input.
    static func prompt(_ question: String) -> String? {
        FileHandle.standardError.write(Data(question.utf8))
        return readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces)
    }

    static var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }

    /// A response as JSON: the API's conventions, indented for people who look.
    static func printJSON(_ value: some Encodable) throws {
        let encoder = APICoding.encoder
        encoder.outputFormatting.insert(.prettyPrinted)
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
