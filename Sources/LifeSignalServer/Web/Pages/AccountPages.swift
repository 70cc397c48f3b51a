import LifeSignalModels

/// What LifeSignal is, and the phone number to sign in or sign up with.
struct SignInPage: WebPage {
    static let template = "signin"
    static let hasPhoneField = true
    let title = say("web.signin.title")
    /// The number typed, shown again with what was wrong with it.
    var phone = ""
    var error: String?
}

/// The code texted to the number.
struct CodePage: WebPage {
    static let template = "code"
    let title = say("web.code.title")
    let phone: String
    /// When a new code may be asked for; unknown after a wrong code.
    var resendAtMs: Int64?
    var error: String?
    /// "We sent a 6-digit code to **+44…**."
    let sentTo: Emphasis

    init(phone: String, resendAtMs: Int64? = nil, error: String? = nil) {
        self.phone = phone
        self.resendAtMs = resendAtMs
        self.error = error
        sentTo = Emphasis("web.code.sentTo", "phone", phone)
    }
}

/// Onboarding in three steps: names, emergency note, rhythm.
struct OnboardingPage: WebPage {
    static let template = "onboarding"
    let title = say("web.onboarding.title")
    let step: Int
    /// "Step 2 of 3".
    let stepLine: String
    let previous: Int
    let stepNames: Bool
    let stepNote: Bool
    let stepRhythm: Bool
    let firstName: String
    let lastName: String
    let note: String
    let reminders: [Choice]
    let rhythmForm: RhythmForm

    init(step: Int, user: User) {
        self.step = step
        stepLine = say("web.onboarding.step", ["step": String(step)])
        previous = step - 1
        stepNames = step == 1
        stepNote = step == 2
        stepRhythm = step == 3
        firstName = user.firstName
        lastName = user.lastName
        note = user.emergencyNote
        reminders = WebController.reminderOptions(selected: user.reminders)
        rhythmForm = RhythmForm(user.schedule, watchOnly: user.watchOnly, asks: true)
    }
}
