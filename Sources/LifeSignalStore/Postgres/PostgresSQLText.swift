import Foundation

/// Lexical helpers for SQL sent to PostgreSQL: numbering `?` placeholders and splitting scripts.
///
/// Both walk the text with a small lexer that knows PostgreSQL's quoting: `'…'` (with `''`),
/// `E'…'` (with backslash escapes), `"…"`, `$tag$…$tag$`, `-- …` and nested `/* … */`.
/// A `?` or `;` inside any of those is left alone. All syntax characters are ASCII, so the
/// lexer works on UTF-8 bytes (a multi-byte sequence never contains an ASCII byte).
///
/// One consequence: PostgreSQL's jsonb operators `?`, `?|` and `?&` cannot be written in a
/// statement (they would be numbered); use `jsonb_exists`, `jsonb_exists_any`, `jsonb_exists_all`.
enum PostgresSQLText {
    /// The statement with each `?` outside quotes and comments replaced by `$1…$n`, and n.
    static func numbered(_ sql: String) -> (sql: String, count: Int) {
        let bytes = Array(sql.utf8)
        guard bytes.contains(UInt8(ascii: "?")) else { return (sql, 0) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var count = 0
        var start = 0
        walk(bytes) { index, byte in
            guard byte == UInt8(ascii: "?") else { return }
            out.append(contentsOf: bytes[start..<index])
            count += 1
            out.append(UInt8(ascii: "$"))
            out.append(contentsOf: String(count).utf8)
            start = index + 1
        }
        out.append(contentsOf: bytes[start...])
        return (String(decoding: out, as: UTF8.self), count)
    }

    /// The statements of a script, split at `;` outside quotes and comments, trimmed, without
    /// empty ones.
    static func split(_ script: String) -> [String] {
        let bytes = Array(script.utf8)
        var statements: [String] = []
        var start = 0
        func flush(_ end: Int) {
            let text = String(decoding: bytes[start..<end], as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if !isBlank(text) { statements.append(text) }
        }
        walk(bytes) { index, byte in
            guard byte == UInt8(ascii: ";") else { return }
            flush(index)
            start = index + 1
        }
        flush(bytes.count)
        return statements
    }

    /// True when the text holds only comments and whitespace.
    private static func isBlank(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "/") {
                let next = skipQuotedOrComment(bytes, at: index)
                if next > index {
                    index = next
                    continue
                }
            }
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return false }
            index += 1
        }
        return true
    }

    /// Calls `visit` for every byte that is outside quotes and comments.
    private static func walk(_ bytes: [UInt8], _ visit: (Int, UInt8) -> Void) {
        var index = 0
        while index < bytes.count {
            let next = skipQuotedOrComment(bytes, at: index)
            if next > index {
                index = next
                continue
            }
            visit(index, bytes[index])
            index += 1
        }
    }

    /// When a quoted token or a comment starts at `index`, the index just past it; else `index`.
    private static func skipQuotedOrComment(_ b: [UInt8], at index: Int) -> Int {
        let c = b[index]
        let next: UInt8? = index + 1 < b.count ? b[index + 1] : nil
        switch c {
        case UInt8(ascii: "'"):
            // E'…' strings take backslash escapes.
            let escapes =
                index > 0 && (b[index - 1] == UInt8(ascii: "E") || b[index - 1] == UInt8(ascii: "e"))
                && (index < 2 || !isIdentifierByte(b[index - 2]))
            return skipQuoted(b, from: index + 1, quote: c, backslash: escapes)
        case UInt8(ascii: "\""):
            return skipQuoted(b, from: index + 1, quote: c, backslash: false)
        case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
            var i = index + 2
            while i < b.count, b[i] != 0x0A { i += 1 }
            return i
        case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
            var depth = 1
            var i = index + 2
            while i < b.count, depth > 0 {
                if b[i] == UInt8(ascii: "/"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "*") {
                    depth += 1
                    i += 2
                } else if b[i] == UInt8(ascii: "*"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "/") {
                    depth -= 1
                    i += 2
                } else {
                    i += 1
                }
            }
            return i
        case UInt8(ascii: "$"):
            // $$…$$ or $tag$…$tag$; `$1` (a parameter) is not a quote, nor is `a$b` (an identifier).
            if index > 0, isIdentifierByte(b[index - 1]) { return index }
            var i = index + 1
            if i < b.count, isDigit(b[i]) { return index }
            while i < b.count, isIdentifierByte(b[i]), b[i] != UInt8(ascii: "$") { i += 1 }
            guard i < b.count, b[i] == UInt8(ascii: "$") else { return index }
            let tag = Array(b[index...i])
            var j = i + 1
            while j + tag.count <= b.count {
                if b[j] == UInt8(ascii: "$"), Array(b[j..<(j + tag.count)]) == tag { return j + tag.count }
                j += 1
            }
            return b.count
        default:
            return index
        }
    }

    private static func skipQuoted(_ b: [UInt8], from start: Int, quote: UInt8, backslash: Bool) -> Int {
        var i = start
        while i < b.count {
            if backslash, b[i] == UInt8(ascii: "\\") {
                i += 2
                continue
            }
            if b[i] == quote {
                if i + 1 < b.count, b[i + 1] == quote {
                    i += 2
                    continue
                }
                return i + 1
            }
            i += 1
        }
        return b.count
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    private static func isIdentifierByte(_ c: UInt8) -> Bool {
        isDigit(c) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_")
            || c == UInt8(ascii: "$") || c >= 0x80
    }
}
