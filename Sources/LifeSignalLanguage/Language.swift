import Foundation

/// A language a person reads and hears, as a BCP 47 tag (`de`, `de-AT`, `pt-BR`, `zh-Hant-TW`).
///
/// Held in its canonical case (language lower, script title, region upper), so `DE-at` and
/// `de-AT` are one language. Only the shape is checked: a well-formed tag for a language the
/// catalogue does not ship is kept (it is what the person asked for) and rendered through its
/// fallback chain, ending in English.
public struct Language: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The canonical tag.
    public let tag: String

    public static let english = Language(canonical: "en")
    /// The pseudo-locale: English with every string bracketed and accented, for finding
    /// sentences that do not come from the catalogue. Tests only; never offered to people.
    public static let pseudo = Language(canonical: "xx-PS")

    private init(canonical: String) { tag = canonical }

    /// A tag as people and browsers write it (`de`, `de-at`, `de_AT`); nil when it is not a
    /// well-formed BCP 47 language tag (language, optional script, optional region, variants
    /// and extensions), or longer than 35 characters.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 35,
            trimmed.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { return nil }
        let parts = trimmed.replacingOccurrences(of: "_", with: "-").split(separator: "-", omittingEmptySubsequences: false).map(
            String.init)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(\.isLetter) else { return nil }
        var out = [first.lowercased()]
        var index = 1
        if index < parts.count, parts[index].count == 4, parts[index].allSatisfy(\.isLetter) {
            out.append(parts[index].prefix(1).uppercased() + parts[index].dropFirst().lowercased())
            index += 1
        }
        if index < parts.count,
            (parts[index].count == 2 && parts[index].allSatisfy(\.isLetter))
                || (parts[index].count == 3 && parts[index].allSatisfy(\.isNumber))
        {
            out.append(parts[index].uppercased())
            index += 1
        }
        while index < parts.count {
            let part = parts[index]
            // Variants (5–8 alphanumerics, or a digit and 3 more) and extensions (a singleton
            // and its subtags of 2–8) are kept as written, lower-cased.
            guard (1...8).contains(part.count) else { return nil }
            out.append(part.lowercased())
            index += 1
        }
        if out.count > 1, out.last!.count == 1 { return nil }
        tag = out.joined(separator: "-")
    }

    /// The language of a POSIX locale as `LANG` and `LC_ALL` hold it (`de_AT.UTF-8`,
    /// `fr_FR@euro`); nil for `C`, `POSIX` or nothing.
    public init?(posix: String) {
        let base = posix.split(separator: ".").first.map(String.init) ?? ""
        let bare = base.split(separator: "@").first.map(String.init) ?? ""
        guard bare != "C", bare != "POSIX", let language = Language(bare) else { return nil }
        self = language
    }

    /// The first language of an `Accept-Language` header the catalogue ships (by its fallback
    /// chain, so `de-CH` is taken as written and read in German), in the order of the header's
    /// weights; nil when none is.
    public static func preferred(acceptLanguage header: String, shipped: Set<Language>) -> Language? {
        let ranked = header.split(separator: ",").enumerated().compactMap { offset, item -> (Language, Double, Int)? in
            let fields = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = fields.first, let language = Language(first) else { return nil }
            var weight = 1.0
            for field in fields.dropFirst() where field.hasPrefix("q=") {
                weight = Double(field.dropFirst(2)) ?? 0
            }
            return weight > 0 ? (language, weight, offset) : nil
        }
        .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.2 < $1.2 }
        return ranked.first { candidate in
            candidate.0.fallbacks.dropLast(candidate.0.primary == "en" ? 0 : 1).contains { shipped.contains($0) }
        }?.0
    }

    /// The languages LifeSignal ships, each in its own name (a name, the same in every
    /// language), in the order they are offered.
    public static let shipped: [(language: Language, name: String)] = [
        (Language(canonical: "en"), "English"), (Language(canonical: "de"), "Deutsch"),
        (Language(canonical: "es"), "Español"), (Language(canonical: "fr"), "Français"),
        (Language(canonical: "ar"), "العربية"),
    ]

    /// The language's own name when LifeSignal ships it (by primary language), else its tag.
    public var name: String {
        Self.shipped.first { $0.language.primary == primary }?.name ?? tag
    }

    /// The primary language subtag (`de` for `de-AT`).
    public var primary: String { String(tag.prefix { $0 != "-" }) }

    /// Where words are looked up, most specific first, always ending in English:
    /// `de-AT` → `de-AT`, `de`, `en`; `zh-Hant-TW` → `zh-Hant-TW`, `zh-Hant`, `zh`, `en`.
    public var fallbacks: [Language] {
        var chain: [Language] = []
        var parts = tag.split(separator: "-").map(String.init)
        while !parts.isEmpty {
            let candidate = Language(canonical: parts.joined(separator: "-"))
            if !chain.contains(candidate) { chain.append(candidate) }
            parts.removeLast()
        }
        if !chain.contains(.english) { chain.append(.english) }
        return chain
    }

    /// Written right to left (Arabic, Hebrew, Persian, Urdu…): pages say `dir="rtl"`.
    public var isRightToLeft: Bool {
        ["ar", "he", "iw", "fa", "ur", "ps", "sd", "ug", "yi", "dv", "ckb"].contains(primary)
    }

    /// `rtl` or `ltr`, for a page's `dir`.
    public var direction: String { isRightToLeft ? "rtl" : "ltr" }

    /// The locale dates, numbers and lists are formatted in. Arabic uses Western digits:
    /// phone numbers, codes and times in a text stay the digits people type back.
    public var locale: Locale {
        if self == .pseudo { return Locale(identifier: "en_GB") }
        if primary == "en" && tag == "en" { return Locale(identifier: "en_GB") }
        if primary == "ar" { return Locale(identifier: tag.replacingOccurrences(of: "-", with: "_") + "@numbers=latn") }
        return Locale(identifier: tag.replacingOccurrences(of: "-", with: "_"))
    }

    public var description: String { tag }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let language = Language(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "Not a language tag: \(text)"))
        }
        self = language
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(tag)
    }
}
