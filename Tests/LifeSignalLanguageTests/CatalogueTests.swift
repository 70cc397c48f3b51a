import Foundation
import Testing

@testable import LifeSignalLanguage

/// The shipped catalogue, read by our own parser from the real file.
@Suite("Language catalogue")
struct CatalogueTests {
    static let shipped: [Language] = ["en", "de", "es", "fr", "ar"].map { Language($0)! }

    /// The real file parses, and reads back a known sentence in each language.
    @Test func theShippedFileParses() throws {
        let catalogue = Catalogue.bundled
        #expect(catalogue.sourceLanguage == .english)
        #expect(catalogue.languages == Set(Self.shipped))
        #expect(catalogue.entries.count >= 40)
        #expect(catalogue.text("time.today", in: Language("de")!, ["time": "09:30"]) == "heute um 09:30")
        #expect(catalogue.text("time.tomorrow", in: Language("es")!, ["time": "09:30"]) == "mañana a las 09:30")
        #expect(catalogue.text("time.today", in: Language("fr")!, ["time": "09:30"]) == "aujourd'hui à 09:30")
        #expect(catalogue.text("time.today", in: Language("ar")!, ["time": "09:30"]) == "اليوم الساعة 09:30")
    }

    /// Every key has words in every shipped language, with the same placeholders as English,
    /// and every plural gives exactly the forms its language needs.
    @Test func everyKeyInEveryLanguageWithTheSamePlaceholders() throws {
        let catalogue = Catalogue.bundled
        var problems: [String] = []
        for (key, byLanguage) in catalogue.entries.sorted(by: { $0.key < $1.key }) {
            guard let english = byLanguage[.english] else {
                problems.append("\(key): no English")
                continue
            }
            let expected = english.texts.reduce(into: Set<String>()) { $0.formUnion(Catalogue.placeholders(in: $1)) }
            for language in Self.shipped {
                guard let entry = byLanguage[language] else {
                    problems.append("\(key): no \(language)")
                    continue
                }
                let names = entry.texts.reduce(into: Set<String>()) { $0.formUnion(Catalogue.placeholders(in: $1)) }
                if names != expected { problems.append("\(key) \(language): placeholders \(names.sorted()) ≠ \(expected.sorted())") }
                if entry.texts.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                    problems.append("\(key) \(language): empty")
                }
                switch (english, entry) {
                case (.text, .text): break
                case (.plural, .plural(let forms)):
                    if Set(forms.keys) != PluralCategory.required(in: language) {
                        problems.append("\(key) \(language): plural forms \(forms.keys.map(\.rawValue).sorted())")
                    }
                default: problems.append("\(key) \(language): plural in one language, not in the other")
                }
            }
        }
        #expect(problems == [])
    }

    /// Every key the code asks for is in the catalogue: the sources are read for string
    /// literals shaped like a key (`"ping.answered.title"`) whose first part is one the
    /// catalogue uses (file names, `"app.js"`, are not keys).
    @Test func everyKeyTheCodeUsesExists() throws {
        let catalogue = Catalogue.bundled
        let prefixes = Set(catalogue.entries.keys.map { String($0.prefix { $0 != "." }) })
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        let pattern = try Regex(#""([a-z]+(?:\.[A-Za-z]+)+)""#)
        var used: Set<String> = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: pattern) {
                guard let key = match.output[1].substring.map(String.init) else { continue }
                // A file the server names (`"app.js"`) is not a key.
                if ["js", "css", "json", "svg", "png", "webmanifest"].contains(String(key.split(separator: ".").last!)) { continue }
                if prefixes.contains(String(key.prefix { $0 != "." })) { used.insert(key) }
            }
        }
        #expect(used.count >= 40)
        #expect(used.subtracting(catalogue.entries.keys).sorted() == [])
    }

    @Test func theParserRefusesWhatItCannotRead() {
        func read(_ json: String) -> String? {
            do {
                _ = try Catalogue(json: Data(json.utf8))
                return nil
            } catch { return "\(error)" }
        }
        #expect(read("[]") == "the catalogue is not a JSON object")
        #expect(read(#"{"strings":{}}"#) == "sourceLanguage is missing or not a language tag")
        #expect(read(#"{"sourceLanguage":"en","strings":{"a":{}}}"#) == "a: no localizations")
        #expect(
            read(
                #"{"sourceLanguage":"en","strings":{"a":{"localizations":{"en":{"variations":{"plural":{"one":{"stringUnit":{"value":"x"}}}}}}}}}"#
            )
                == "a (en): a plural needs its other form")
        #expect(
            read(
                #"{"sourceLanguage":"en","strings":{"a":{"localizations":{"en":{"variations":{"plural":{"several":{"stringUnit":{"value":"x"}},"other":{"stringUnit":{"value":"y"}}}}}}}}}"#
            )
                == "a (en): plural form several is not one of CLDR's")
        #expect(
            read(#"{"sourceLanguage":"en","strings":{"a":{"localizations":{"e n":{"stringUnit":{"value":"x"}}}}}}"#)
                == "a: e n is not a language tag")
        #expect(
            read(#"{"sourceLanguage":"en","strings":{"a":{"localizations":{"en":{"stringUnit":{}}}}}}"#)
                == "a (en): stringUnit without a value")
    }

    /// `de-AT` reads German, then English for a key German lacks; an unknown language reads
    /// English; plurals follow the language the words were found in.
    @Test func theFallbackChain() {
        #expect(Language("de-AT")!.fallbacks.map(\.tag) == ["de-AT", "de", "en"])
        #expect(Language("zh-hant-tw")!.fallbacks.map(\.tag) == ["zh-Hant-TW", "zh-Hant", "zh", "en"])
        #expect(Language.english.fallbacks.map(\.tag) == ["en"])
        let catalogue = Catalogue(
            sourceLanguage: .english,
            entries: [
                "only.english": [.english: .text("Hello {name}")],
                "both": [.english: .text("Check in"), Language("de")!: .text("Melden Sie sich")],
                "austrian": [
                    .english: .text("January"), Language("de")!: .text("Januar"), Language("de-AT")!: .text("Jänner"),
                ],
                "count": [
                    .english: .plural([.one: "{count} day", .other: "{count} days"]),
                    Language("ar")!: .plural([.zero: "z", .one: "o", .two: "t", .few: "{count} f", .many: "{count} m", .other: "{count} x"]
                    ),
                ],
            ])
        let austria = Language("de-AT")!
        #expect(catalogue.text("austrian", in: austria) == "Jänner")
        #expect(catalogue.text("austrian", in: Language("de-DE")!) == "Januar")
        #expect(catalogue.text("both", in: austria) == "Melden Sie sich")
        #expect(catalogue.text("only.english", in: austria, ["name": "Ada"]) == "Hello Ada")
        #expect(catalogue.text("both", in: Language("ja")!) == "Check in")
        #expect(catalogue.text("missing.key", in: austria) == "missing.key")
        #expect(catalogue.text("count", in: Language("ar")!, count: 2) == "t")
        #expect(catalogue.text("count", in: Language("ar")!, count: 11) == "11 m")
        // German has no plural entry here: English's words, English's rule.
        #expect(catalogue.text("count", in: austria, count: 1) == "1 day")
        #expect(catalogue.text("count", in: austria, count: 0) == "0 days")
        #expect(Words(austria, catalogue: catalogue).rendered == austria)
        #expect(Words(Language("ja")!, catalogue: catalogue).rendered == .english)
    }

    /// The pseudo-locale brackets and accents English and leaves arguments alone.
    @Test func thePseudoLocaleMarksEveryString() {
        let words = Words(.pseudo)
        #expect(words("ping.answered.title", ["name": "Ada Lovelace"]) == "[Ada Lovelace ís ÖK]")
        #expect(words("time.today", ["time": "09:30"]) == "[tödáý át 09:30]")
        #expect(words("time.today") == "[tödáý át {time}]")
    }

    @Test func namesAreNeverTranslated() {
        let words = Words(Language("de")!)
        #expect(words("ping.answered.title", ["name": "Morgen Heute"]) == "Morgen Heute geht es gut")
    }

    @Test func listsAndDurationsInTheReadersLanguage() {
        #expect(Words.english.list(["Bob", "Cy", "Dee"]) == "Bob, Cy and Dee")
        #expect(Words(Language("de")!).list(["Bob", "Cy", "Dee"]) == "Bob, Cy und Dee")
        #expect(Words(Language("es")!).list(["Bob", "Cy"]) == "Bob y Cy")
        #expect(Words(Language("fr")!).list(["Bob", "Cy"]) == "Bob et Cy")
        #expect(Words(Language("ar")!).list(["Bob"]) == "Bob")
        #expect(Words.english.duration(seconds: 7200) == "2 hours")
        #expect(Words.english.duration(seconds: 3600) == "1 hour")
        #expect(Words.english.duration(seconds: 1800) == "30 minutes")
        #expect(Words(Language("de")!).duration(seconds: 1800) == "30 Minuten")
        #expect(Words(Language("ar")!).duration(seconds: 7200) == "ساعتين")
        #expect(Words(Language("fr")!).duration(seconds: 3600) == "1 heure")
    }
}
