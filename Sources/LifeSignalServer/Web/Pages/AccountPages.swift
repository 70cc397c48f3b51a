import LifeSignalModels

/// What LifeSignal is, and the phone number to sign in or sign up with.
struct SignInPage: WebPage {
    static let template = "signin"
    static let hasPhoneField = true
    let title = "Sign in"
    /// The number typed, shown again with what was wrong with it.
    var phone = ""
    var error: String?
}

/// The code texted to the number.
struct CodePage: WebPage {
    static let template = "code"
    let title = "Enter your code"
    let phone: String
    /// When a new code may be asked for; unknown after a wrong code.
    var resendAtMs: Int64?
    var error: String?
}

/// Onboarding in three steps: names, emergency note, rhythm.
struct OnboardingPage: WebPage {
    static let template = "onboarding"
    let title = "Welcome"
    let step: Int
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
