import Foundation

/// What a text message costs: how it is encoded and in how many parts it travels.
///
/// A text is GSM-7 (160 characters, or 153 a part when split) when every character is in the
/// GSM 03.38 alphabet, else UCS-2 (70, or 67 a part, counted in UTF-16 units). One stray
/// character — `en_US`'s narrow no-break space in "9:30 PM", a curly quote — turns a whole
/// text into UCS-2, so texts are normalised first.
public enum TextMessage {
    public enum Encoding: String, Sendable, Hashable {
        case gsm7 = "GSM-7"
        case ucs2 = "UCS-2"
    }

    /// At most this many parts: a longer text takes its short form.
    public static let maximumSegments = 3

    /// The GSM 03.38 basic alphabet (one septet each).
    static let basic: Set<Character> = Set(
        "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
    )
    /// The extension table (an escape and a septet: two each).
    static let extended: Set<Character> = Set("^{}\\[~]|€\u{0C}")

    /// The text ready to send: no-break and narrow spaces as spaces, invisible direction
    /// marks and isolates dropped, curly quotes, guillemets and dashes as ASCII (Arabic keeps
    /// its guillemets: it is UCS-2 anyway), "🆘" as "SOS" and other pictographs dropped, and
    /// runs of spaces as one.
    public static func normalise(_ text: String, language: Language) -> String {
        var out = String.UnicodeScalarView()
        let keepGuillemets = language.isRightToLeft
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00A0, 0x202F, 0x2007, 0x2009, 0x200A, 0x2002...0x2006, 0x205F: out.append(" ")
            case 0x200B, 0x200E, 0x200F, 0x2066...0x2069, 0x202A...0x202E, 0xFE0F, 0xFE0E, 0x200D: continue
            case 0x2018, 0x2019, 0x201A, 0x201B, 0x2032: out.append("'")
            case 0x201C, 0x201D, 0x201E, 0x201F, 0x2033: out.append("\"")
            case 0x00AB, 0x00BB:
                if keepGuillemets { out.append(scalar) } else { out.append("\"") }
            case 0x2010...0x2015, 0x2212: out.append("-")
            case 0x2026: out.append(contentsOf: "...".unicodeScalars)
            case 0x1F198: out.append(contentsOf: "SOS".unicodeScalars)
            default:
                if scalar.value > 0xFF && scalar.properties.isEmojiPresentation { continue }
                if (0x1F3FB...0x1F3FF).contains(scalar.value) { continue }
                out.append(scalar)
            }
        }
        var text = String(out)
        while text.contains("  ") { text = text.replacingOccurrences(of: "  ", with: " ") }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
    }

    public static func encoding(of text: String) -> Encoding {
        text.allSatisfy { basic.contains($0) || extended.contains($0) } ? .gsm7 : .ucs2
    }

    /// Septets (GSM-7) or UTF-16 units (UCS-2).
    public static func units(of text: String) -> Int {
        switch encoding(of: text) {
        case .gsm7: text.reduce(0) { $0 + (extended.contains($1) ? 2 : 1) }
        case .ucs2: text.utf16.count
        }
    }

    /// How many parts the text travels in.
    public static func segments(of text: String) -> Int {
        let units = units(of: text)
        let (single, part) = encoding(of: text) == .gsm7 ? (160, 153) : (70, 67)
        if units <= single { return 1 }
        return (units + part - 1) / part
    }

    /// The text of a message: its lines (title, body, link, how to answer) normalised, or,
    /// when that would take more than ``maximumSegments`` parts, the short form (title, link,
    /// how to answer), cut at the last word that fits when even that is too long.
    public static func compose(
        title: String, body: String, link: String?, hint: String?, language: Language
    ) -> String {
        func lines(_ parts: [String?]) -> String {
            normalise(parts.compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "\n"), language: language)
        }
        let full = lines([title, body, link, hint])
        if segments(of: full) <= maximumSegments { return full }
        let short = lines([title, link, hint])
        if segments(of: short) <= maximumSegments { return short }
        var cut = short
        while segments(of: cut) > maximumSegments, let space = cut.lastIndex(of: " ") {
            cut = String(cut[..<space])
        }
        return cut
    }
}
