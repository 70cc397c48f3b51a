import LifeSignalLanguage

extension WebController {
    /// The languages offered in Settings, each in its own name. The pseudo-locale is for tests
    /// and never offered.
    static func languageChoices(selected: Language) -> [Choice] {
        Language.shipped.map { Choice(value: $0.language.tag, label: $0.name, selected: $0.language.primary == selected.primary) }
    }
}
