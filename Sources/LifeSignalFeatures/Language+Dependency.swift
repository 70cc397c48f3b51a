import ComposableCore
import Foundation
import LifeSignalLanguage

/// The language the app speaks: its words come from the catalogue (`Words`), in this
/// language, through its fallback chain (`de-AT` → `de` → English).
///
/// A dependency like the clock: the app sets it from the person's chosen language (their
/// profile's, else the device's); features read it where they make a sentence, so a test
/// can run a feature in German (`$0.language = Language("de")!`). Tests default to English.
private enum LanguageKey: DependencyKey {
    static var liveValue: Language {
        Locale.preferredLanguages.lazy.compactMap { Language($0) }.first ?? .english
    }
    static let testValue = Language.english
    static let previewValue = Language.english
}

extension DependencyValues {
    public var language: Language {
        get { self[LanguageKey.self] }
        set { self[LanguageKey.self] = newValue }
    }
}

extension Words {
    /// The app's words, in the `language` dependency as the store running the reducer (or its
    /// effect) has it: what every alert, error and reminder of the features is said in.
    public static var app: Words {
        @Dependency(\.language) var language
        return Words(language)
    }
}
