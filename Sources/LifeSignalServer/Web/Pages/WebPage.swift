/// The values of one page template (`Templates/<template>.mustache`).
///
/// swift-mustache reads a value's *stored* properties by name through `Mirror`: computed
/// properties are invisible to templates, a nil Optional is "not there" (the name is looked up
/// further out, and a section stays closed), and a `Bool` opens or closes a section. An empty
/// string would still open a section, so text that may be empty is an Optional (`String.nonEmpty`).
protocol WebPage {
    /// The template's name, without `.mustache`.
    static var template: String { get }
    /// The part of the site the page belongs to, marked as current in the navigation.
    static var section: NavSection? { get }
    /// Whether the page has a phone number field (`{{> phone-region}}`), which needs the country list.
    static var hasPhoneField: Bool { get }
    /// The page's title, before " · LifeSignal".
    var title: String { get }
}

extension WebPage {
    static var section: NavSection? { nil }
    static var hasPhoneField: Bool { false }
}

/// The parts of the site the main navigation links to.
enum NavSection {
    case home, contacts, notifications, profile, settings
}

/// One option of a `<select>` (or a checkbox of a list).
struct Choice {
    let value: String
    let label: String
    var selected = false
}

extension String {
    /// The text, or nil when it is empty, so that `{{#name}}` stays closed for "no text".
    var nonEmpty: String? { isEmpty ? nil : self }
}
