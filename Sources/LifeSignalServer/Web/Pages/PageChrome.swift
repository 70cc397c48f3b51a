import Foundation
import LifeSignalPhone

/// What every page's layout reads (`head`, `phone-region`), whatever the page: the form token,
/// the flash message, the navigation and its badges.
struct PageChrome {
    let csrf: String
    let flash: String?
    let signedIn: Bool
    /// Which navigation link is the page's (`{{#nav.home}}`).
    let nav: Navigation
    /// Counts on the navigation, for a signed-in, onboarded person.
    var badges: Badges?
    /// The VAPID public key browsers subscribe with, when Web Push is configured.
    var vapidKey: String?
    /// The countries a phone number can be typed in, on pages with a phone number field.
    var regions: [Choice]?
    /// A number as people write it in the picked country, the field's placeholder.
    var phoneExample: String?
    /// "(as you write it at home, like 020 7946 0000)", beside the field.
    var phoneHint: String?
    /// The page's language and direction (`<html lang dir>`).
    let lang: String
    let dir: String
    /// The page's words by key (``PageWords``).
    let w: [String: Any]
    /// The words the script writes itself (countdown, status, queued check-ins), as JSON.
    let scriptWords: String
    /// She shares her location during an alert: her own actions' forms (SOS, plans) carry
    /// `data-locate`, and the page after them reads the position once and posts it.
    let shareLocation: Bool
    /// …and at her check-ins too (the check-in form's `data-locate-now`).
    let shareLocationAtCheckIns: Bool

    init<Page: WebPage>(_ context: WebContext, for page: Page.Type) {
        csrf = context.csrf
        flash = context.flash?.nonEmpty
        signedIn = context.caller != nil
        nav = Navigation(current: page.section)
        let words = ReaderClock.current.words
        lang = words.language == .pseudo ? "en" : words.rendered.tag
        dir = words.rendered.direction
        w = PageWords.all(words)
        scriptWords = PageWords.script(words)
        shareLocation = context.caller?.user.shareLocation ?? false
        shareLocationAtCheckIns = context.caller?.user.shareLocationAtCheckIns ?? false
        if page.hasPhoneField {
            // Countries by their names in the reader's language (English's when it has none).
            let locale = words.locale
            regions = PhoneNumbers.regions.map { region in
                let name = locale.localizedString(forRegionCode: region.id) ?? region.name
                return Choice(value: region.id, label: "\(name) (+\(region.callingCode))", selected: region.id == context.region)
            }.sorted { $0.label.localizedStandardCompare($1.label) == .orderedAscending }
            phoneExample = PhoneNumbers.example(context.region)?.nonEmpty
            phoneHint = phoneExample.map { words("web.phone.hintExample", ["example": $0]) } ?? words("web.phone.hint")
        }
    }

    struct Navigation {
        let home: Bool
        let contacts: Bool
        let notifications: Bool
        let profile: Bool
        let settings: Bool

        init(current: NavSection?) {
            home = current == .home
            contacts = current == .contacts
            notifications = current == .notifications
            profile = current == .profile
            settings = current == .settings
        }
    }

    /// Nil counts are not shown.
    struct Badges {
        let unread: Int?
        let pings: Int?
    }
}
