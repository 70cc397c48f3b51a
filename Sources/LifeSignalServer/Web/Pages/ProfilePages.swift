/// The person's name, note, picture, number, sessions and API tokens.
struct ProfilePage: WebPage {
    static let template = "profile"
    static let section: NavSection? = .profile
    static let hasPhoneField = true
    let title = "Profile"
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
        /// "Sign-in" or "API token".
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
    let title = "Confirm your new number"
    let phone: String
    let resendAtMs: Int64
}

/// A new API token, shown this once.
struct TokenPage: WebPage {
    static let template = "token"
    static let section: NavSection? = .profile
    let title = "New API token"
    let name: String
    let token: String
    let checkInOnly: Bool
}
