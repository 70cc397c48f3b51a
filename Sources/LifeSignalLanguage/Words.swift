import Foundation

/// The catalogue for one reader: `words("ping.answered.title", ["name": name])`. Every
/// sentence a person reads or hears is made through one of these, in their language.
public struct Words: Sendable {
    /// The language asked for (kept with its region: `de-AT`).
    public let language: Language
    public let catalogue: Catalogue

    public init(_ language: Language, catalogue: Catalogue = .bundled) {
        self.language = language
        self.catalogue = catalogue
    }

    public static let english = Words(.english)

    /// The words for `key`, with its `{placeholders}` filled; `count` picks a plural form.
    public func callAsFunction(_ key: String, _ arguments: [String: String] = [:], count: Int? = nil) -> String {
        catalogue.text(key, in: language, arguments, count: count)
    }

    /// The language the words come out in: the one asked for when the catalogue has its
    /// primary language (`de-AT` keeps its region for dates), else English. Marks e-mails
    /// (`Content-Language`) and picks a call's voice.
    public var rendered: Language {
        if language == .pseudo { return .english }
        return catalogue.languages.contains(where: { $0.primary == language.primary }) ? language : .english
    }

    /// The locale dates, numbers and lists are written in: the rendered language's.
    public var locale: Locale { rendered.locale }

    /// "Bob", "Bob and Cy", "Bob, Cy and Dee" in the reader's language (`und`, `y`, `et`, `و`).
    public func list(_ items: [String]) -> String {
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        default: return items.formatted(.list(type: .and).locale(locale))
        }
    }

    /// "2 hours", "30 minutes": whole hours when the length is some, else minutes.
    public func duration(seconds: Int) -> String {
        seconds % 3600 == 0 && seconds > 0
            ? self("duration.hours", count: seconds / 3600) : self("duration.minutes", count: seconds / 60)
    }
}
