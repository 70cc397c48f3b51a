import Foundation

/// Writes an RFC 5322 message: headers (non-ASCII as RFC 2047 encoded words, folded) and a
/// UTF-8 plain-text body in quoted-printable, so it passes servers without 8BITMIME untouched.
struct EmailComposer: Sendable {
    var fromAddress: String
    var fromName: String?
    /// The right-hand side of Message-IDs, normally the sending domain.
    var messageIDDomain: String

    struct Composed: Sendable {
        var messageID: String
        var text: String
    }

    func compose(
        to: String, subject: String, body: String, date: Date, messageID localPart: String, urgent: Bool,
        extraHeaders: [(String, String)] = []
    ) -> Composed {
        let messageID = "<\(localPart)@\(messageIDDomain)>"
        var headers: [(String, String)] = [
            ("From", Self.mailbox(address: fromAddress, name: fromName)),
            ("To", "<\(to)>"),
            ("Subject", Self.encodedHeaderText(subject, headerName: "Subject")),
            ("Date", Self.rfc5322Date(date)),
            ("Message-ID", messageID),
            ("MIME-Version", "1.0"),
            ("Content-Type", "text/plain; charset=UTF-8"),
            ("Content-Transfer-Encoding", "quoted-printable"),
            ("Auto-Submitted", "auto-generated"),
        ]
        if urgent {
            headers.append(("Importance", "high"))
            headers.append(("X-Priority", "1"))
        }
        headers += extraHeaders
        let head = headers.map { "\($0.0): \($0.1)" }.joined(separator: "\r\n")
        return Composed(messageID: messageID, text: head + "\r\n\r\n" + Self.quotedPrintable(body))
    }

    /// `Name <address>`, the name quoted or encoded as needed.
    static func mailbox(address: String, name: String?) -> String {
        guard let name = name.map(singleLine), !name.isEmpty else { return "<\(address)>" }
        if !name.allSatisfy(\.isASCII) {
            return "\(encodedWords(name).joined(separator: "\r\n ")) <\(address)>"
        }
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(escaped)\" <\(address)>"
    }

    /// Header text: plain when ASCII (folded at spaces past 78 columns), else encoded words.
    static func encodedHeaderText(_ text: String, headerName: String) -> String {
        let text = singleLine(text)
        if text.allSatisfy(\.isASCII) {
            return fold(text, firstLineUsed: headerName.count + 2)
        }
        return encodedWords(text).joined(separator: "\r\n ")
    }

    /// RFC 2047 `=?UTF-8?B?…?=` words, never splitting a character, each short enough that a
    /// header line holding one stays within 78 characters.
    static func encodedWords(_ text: String) -> [String] {
        var words: [String] = []
        var chunk = Data()
        // 39 bytes of UTF-8 make 52 base64 characters; with the 12 of the wrapper that is 64,
        // which leaves room for "Subject: " or "From: " on the first line.
        for character in text {
            let bytes = Data(String(character).utf8)
            if chunk.count + bytes.count > 39, !chunk.isEmpty {
                words.append("=?UTF-8?B?\(chunk.base64EncodedString())?=")
                chunk = Data()
            }
            chunk.append(bytes)
        }
        if !chunk.isEmpty { words.append("=?UTF-8?B?\(chunk.base64EncodedString())?=") }
        return words
    }

    /// Folds long ASCII header text at spaces so lines stay within 78 characters where words allow.
    static func fold(_ text: String, firstLineUsed: Int) -> String {
        var lines: [String] = []
        var current = ""
        var limit = 78 - firstLineUsed
        for word in text.split(separator: " ") {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count > limit {
                lines.append(current)
                current = String(word)
                limit = 77  // continuation lines start with a space
            } else {
                current += " " + word
            }
        }
        lines.append(current)
        return lines.joined(separator: "\r\n ")
    }

    /// Header values must stay on one line; anything else would let text inject headers.
    static func singleLine(_ text: String) -> String {
        text.components(separatedBy: .newlines).joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }

    /// `Tue, 03 Mar 2026 09:12:00 +0000`.
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    /// RFC 2045 §6.7 quoted-printable with CRLF hard breaks and lines of at most 76 characters.
    static func quotedPrintable(_ text: String) -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let hex = Array("0123456789ABCDEF".utf8)
        return normalized.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let bytes = Array(line.utf8)
            var out: [UInt8] = []
            var lineLength = 0
            for (index, byte) in bytes.enumerated() {
                let isLast = index == bytes.count - 1
                let literal =
                    (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "="))
                    || ((byte == 0x20 || byte == 0x09) && !isLast)
                let piece: [UInt8] = literal ? [byte] : [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]]
                // Leave room for the "=" of a soft break.
                if lineLength + piece.count > 75 {
                    out += Array("=\r\n".utf8)
                    lineLength = 0
                }
                out += piece
                lineLength += piece.count
            }
            return String(decoding: out, as: UTF8.self)
        }.joined(separator: "\r\n")
    }
}
