import Foundation
import Testing

@testable import LifeSignalLanguage

@Suite("Language tags")
struct LanguageTagTests {
    @Test func wellFormedTagsInCanonicalCase() {
        #expect(Language("de")?.tag == "de")
        #expect(Language("DE-at")?.tag == "de-AT")
        #expect(Language("de_AT")?.tag == "de-AT")
        #expect(Language("zh-hant-tw")?.tag == "zh-Hant-TW")
        #expect(Language("es-419")?.tag == "es-419")
        #expect(Language("en-GB-oxendict")?.tag == "en-GB-oxendict")
        #expect(Language(" fr ")?.tag == "fr")
    }

    @Test(arguments: ["", "d", "deutsch", "de-", "12", "de AT", "<script>", "de-AT-x", "ar-😀", String(repeating: "ab-", count: 20) + "ab"])
    func junkIsRefused(_ text: String) {
        #expect(Language(text) == nil)
    }

    @Test func posixLocales() {
        #expect(Language(posix: "de_AT.UTF-8")?.tag == "de-AT")
        #expect(Language(posix: "fr_FR@euro")?.tag == "fr-FR")
        #expect(Language(posix: "C.UTF-8") == nil)
        #expect(Language(posix: "POSIX") == nil)
        #expect(Language(posix: "") == nil)
    }

    @Test func acceptLanguage() {
        let shipped = Set(["en", "de", "es", "fr", "ar"].map { Language($0)! })
        #expect(Language.preferred(acceptLanguage: "de-AT,de;q=0.9,en;q=0.8", shipped: shipped)?.tag == "de-AT")
        #expect(Language.preferred(acceptLanguage: "ja,fr;q=0.5", shipped: shipped)?.tag == "fr")
        #expect(Language.preferred(acceptLanguage: "en;q=0.2, es-MX", shipped: shipped)?.tag == "es-MX")
        #expect(Language.preferred(acceptLanguage: "ja,zh;q=0.5", shipped: shipped) == nil)
        #expect(Language.preferred(acceptLanguage: "fr;q=0, de;q=0.1", shipped: shipped)?.tag == "de")
        #expect(Language.preferred(acceptLanguage: "", shipped: shipped) == nil)
    }

    @Test func direction() {
        #expect(Language("ar")!.direction == "rtl")
        #expect(Language("ar-EG")!.isRightToLeft)
        #expect(Language("de")!.direction == "ltr")
    }

    @Test func codableAsItsTag() throws {
        let data = try JSONEncoder().encode([Language("de-at")!])
        #expect(String(decoding: data, as: UTF8.self) == #"["de-AT"]"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Language].self, from: Data(#"["no way"]"#.utf8)) }
    }
}
