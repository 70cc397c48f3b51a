/// The person's name, note, picture, number, sessions and API tokens.
struct ProfilePage: WebPage {
    static let template = "profile"
    static let section: NavSection? = .profile
    static let hasPhoneField = true
    let title = say("web.nav.profile")
    /// "Type DELETE to confirm": the word stays DELETE in every language.
    let deleteConfirm = say("web.profile.deleteConfirm", ["word": "DELETE"])
    let id: String
    let firstName: String
    let lastName: String
    let note: String
    let phone: String
    let hasAvatar: Bool
    let sessions: [Session]

    /// A sign-in or API token, as "where you're signed in" lists it.
    struct Session {
        let id: String
        let name: String
        /// "Sign-in" or "API token", and "this browser" for its own.
        let kind: String
        let used: String
        /// The session of this browser.
        let current: Bool
    }
}

/// The code sent to a new phone number, which changes once it is entered.
struct PhoneCodePage: WebPage {
    static let template = "phone-code"
    static let section: NavSection? = .profile
    let title = say("web.phoneCode.title")
    let phone: String
    let resendAtMs: Int64
    /// "We sent a 6-digit code to **+44…**."
    let sentTo: Emphasis

    init(phone: String, resendAtMs: Int64) {
        self.phone = phone
        self.resendAtMs = resendAtMs
        sentTo = Emphasis("web.code.sentTo", "phone", phone)
    }
}

/// A new API token, shown this once.
struct TokenPage: WebPage {
    static let template = "token"
    static let section: NavSection? = .profile
    let title = say("web.token.title")
    let name: String
    let token: String
    let checkInOnly: Bool
}
