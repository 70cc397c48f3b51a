import Foundation
import LifeSignalLanguage

/// Which voice reads a call, by the language of its words: the `voice` and `language`
/// attributes of Twilio's `<Say>` (Amazon Polly voices through Twilio).
public struct CallVoice: Hashable, Sendable {
    /// `Polly.Vicki`; nil is the provider's default voice.
    public var voice: String?
    /// The `<Say>` language (`de-DE`); nil leaves it to the voice.
    public var language: String?

    public init(voice: String?, language: String?) {
        self.voice = voice
        self.language = language
    }

    /// A voice for each language a call can be in, by tag and then by primary language.
    /// English is the operator's configured voice, as before.
    public static let table: [String: CallVoice] = [
        "de": CallVoice(voice: "Polly.Vicki", language: "de-DE"),
        "es": CallVoice(voice: "Polly.Lucia", language: "es-ES"),
        "es-MX": CallVoice(voice: "Polly.Mia", language: "es-MX"),
        "es-US": CallVoice(voice: "Polly.Lupe", language: "es-US"),
        "fr": CallVoice(voice: "Polly.Lea", language: "fr-FR"),
        "fr-CA": CallVoice(voice: "Polly.Chantal", language: "fr-CA"),
        "ar": CallVoice(voice: "Polly.Zeina", language: "arb"),
    ]

    /// The voice for words in `language`; `known` is false when the table has none, and the
    /// call is then read in English with `english` (the caller logs it).
    public static func choose(for language: Language, english: String?) -> (voice: CallVoice, known: Bool) {
        let englishVoice = CallVoice(voice: english, language: nil)
        if language.primary == "en" { return (englishVoice, true) }
        if let exact = table[language.tag] ?? table[language.primary] { return (exact, true) }
        return (englishVoice, false)
    }
}
