import Foundation

/// Every sentence LifeSignal says, in every language it ships: `Localizable.xcstrings`, the
/// JSON string catalogue Apple's tools edit, read here by its own parser (Foundation's
/// `Bundle.localizedString` does not read it on Linux).
///
/// The subset used: each key has, per language, either a `stringUnit` (one text) or
/// `variations.plural` (a text per CLDR plural category, chosen by the `count` argument).
/// Placeholders are named, `{name}`; names and notes people wrote are arguments, never
/// translated.
public struct Catalogue: Sendable {
    /// One key's words in one language.
    public enum Entry: Sendable, Hashable {
        case text(String)
        case plural([PluralCategory: String])

        /// Every text of the entry (one, or one per plural form).
        public var texts: [String] {
            switch self {
            case .text(let text): [text]
            case .plural(let forms): PluralCategory.allCases.compactMap { forms[$0] }
            }
        }
    }

    /// A catalogue file that cannot be read, and where.
    public struct ReadError: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    public let sourceLanguage: Language
    /// Key → language → words.
    public let entries: [String: [Language: Entry]]

    public init(sourceLanguage: Language, entries: [String: [Language: Entry]]) {
        self.sourceLanguage = sourceLanguage
        self.entries = entries
    }

    /// Reads a string catalogue. Anything it does not understand is an error naming the key,
    /// never a silent gap: a missing sentence would reach a person as a key.
    public init(json: Data) throws {
        guard let root = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            throw ReadError(description: "the catalogue is not a JSON object")
        }
        guard let sourceText = root["sourceLanguage"] as? String, let source = Language(sourceText) else {
            throw ReadError(description: "sourceLanguage is missing or not a language tag")
        }
        guard let strings = root["strings"] as? [String: Any] else {
            throw ReadError(description: "strings is missing")
        }
        var entries: [String: [Language: Entry]] = [:]
        for (key, value) in strings {
            guard let string = value as? [String: Any], let localizations = string["localizations"] as? [String: Any] else {
                throw ReadError(description: "\(key): no localizations")
            }
            var byLanguage: [Language: Entry] = [:]
            for (tag, localization) in localizations {
                guard let language = Language(tag), let localization = localization as? [String: Any] else {
                    throw ReadError(description: "\(key): \(tag) is not a language tag")
                }
                byLanguage[language] = try Self.entry(localization, where: "\(key) (\(tag))")
            }
            entries[key] = byLanguage
        }
        self.init(sourceLanguage: source, entries: entries)
    }

    private static func entry(_ localization: [String: Any], where place: String) throws -> Entry {
        if let unit = localization["stringUnit"] {
            return .text(try value(of: unit, where: place))
        }
        guard let variations = localization["variations"] as? [String: Any],
            let plural = variations["plural"] as? [String: Any]
        else { throw ReadError(description: "\(place): neither stringUnit nor variations.plural") }
        var forms: [PluralCategory: String] = [:]
        for (name, form) in plural {
            guard let category = PluralCategory(rawValue: name), let form = form as? [String: Any],
                let unit = form["stringUnit"]
            else { throw ReadError(description: "\(place): plural form \(name) is not one of CLDR's") }
            forms[category] = try value(of: unit, where: "\(place) \(name)")
        }
        guard forms[.other] != nil else { throw ReadError(description: "\(place): a plural needs its other form") }
        return .plural(forms)
    }

    private static func value(of unit: Any, where place: String) throws -> String {
        guard let unit = unit as? [String: Any], let value = unit["value"] as? String else {
            throw ReadError(description: "\(place): stringUnit without a value")
        }
        return value
    }

    /// The catalogue shipped with LifeSignal (`Localizable.xcstrings` in this module's
    /// resources). A server that cannot read it stops at start, not at its first alert.
    public static let bundled: Catalogue = {
        guard let url = Bundle.module.url(forResource: "Localizable", withExtension: "xcstrings") else {
            fatalError("Localizable.xcstrings is missing from the LifeSignalLanguage resources")
        }
        do {
            return try Catalogue(json: try Data(contentsOf: url))
        } catch {
            fatalError("Localizable.xcstrings cannot be read: \(error)")
        }
    }()

    /// The languages with words in the catalogue (every key has them: a test says so).
    public var languages: Set<Language> {
        Set(entries.values.flatMap(\.keys))
    }

    /// The words for `key` in `language`, found through its fallback chain (`de-AT` → `de` →
    /// `en`), with `{placeholders}` filled from `arguments`. A plural entry takes the form for
    /// `count` by the rules of the language the words were found in, and `{count}` is that
    /// number. A key the catalogue lacks comes back as itself, so a test finds it on a page.
    public func text(_ key: String, in language: Language, _ arguments: [String: String] = [:], count: Int? = nil) -> String {
        if language == .pseudo {
            return Self.pseudo(text(key, in: .english, arguments, count: count), keeping: Array(arguments.values))
        }
        guard let byLanguage = entries[key] else { return key }
        for candidate in language.fallbacks {
            guard let entry = byLanguage[candidate] else { continue }
            switch entry {
            case .text(let text):
                return Self.fill(text, arguments, count: count)
            case .plural(let forms):
                let category = PluralCategory.of(count ?? 0, in: candidate)
                return Self.fill(forms[category] ?? forms[.other] ?? key, arguments, count: count)
            }
        }
        return key
    }

    /// The `{name}` placeholders of a text.
    public static func placeholders(in text: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            let name = after[..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) {
                names.insert(String(name))
            }
            rest = after[after.index(after: close)...]
        }
        return names
    }

    private static func fill(_ text: String, _ arguments: [String: String], count: Int?) -> String {
        guard text.contains("{") else { return text }
        var out = text
        for (name, value) in arguments {
            out = out.replacingOccurrences(of: "{\(name)}", with: value)
        }
        if let count { out = out.replacingOccurrences(of: "{count}", with: String(count)) }
        return out
    }

    /// English made visibly foreign: ASCII letters accented, the whole bracketed; the
    /// arguments (names people wrote, times) and unfilled `{placeholders}` are left as they are.
    static func pseudo(_ english: String, keeping arguments: [String]) -> String {
        let accents: [Character: Character] = [
            "a": "á", "e": "é", "i": "í", "o": "ö", "u": "ü", "y": "ý", "c": "ç", "n": "ñ",
            "A": "Á", "E": "É", "I": "Í", "O": "Ö", "U": "Ü", "Y": "Ý", "C": "Ç", "N": "Ñ",
        ]
        var out = ""
        var rest = Substring(english)
        while !rest.isEmpty {
            if let argument = arguments.filter({ !$0.isEmpty && rest.hasPrefix($0) }).max(by: { $0.count < $1.count }) {
                out += argument
                rest = rest.dropFirst(argument.count)
            } else if rest.first == "{", let close = rest.firstIndex(of: "}") {
                // A placeholder left for a later filler (the page script's) stays as it is.
                out += rest[...close]
                rest = rest[rest.index(after: close)...]
            } else {
                out.append(accents[rest.first!] ?? rest.first!)
                rest = rest.dropFirst()
            }
        }
        return "[" + out + "]"
    }
}
