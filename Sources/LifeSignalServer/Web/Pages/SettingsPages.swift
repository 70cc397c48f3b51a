/// Grace period, time zone, pause, and the channels the person is reached on.
struct SettingsPage: WebPage {
    static let template = "settings"
    static let section: NavSection? = .settings
    static let hasPhoneField = true
    let title = say("web.nav.settings")
    let graces: [Choice]
    /// The shipped languages, each in its own name; the person's chosen.
    let languages: [Choice]
    let timeZone: String
    let zones: [String]
    /// Quiet hours: on or off, and their start and end (22:00 to 07:00 until she chooses).
    let quietOn: Bool
    let quietFrom: String
    let quietTo: String
    let paused: Bool
    /// "Paused until tomorrow at 09:00."
    let pausedLine: String
    /// The range of days a pause can end on.
    let today: String
    let lastDay: String
    /// An alert about a missed check-in is open: pausing now must say what becomes of it.
    let incidentOpen: Bool
    /// Days off planned ahead (the pause that holds now is `pausedLine`), and the range of days
    /// they can start and end on.
    let planned: [PlannedPause]
    let noPlanned: Bool
    let tomorrow: String
    let lastPlanDay: String
    let phone: String
    /// The person texted STOP to their own number.
    let phoneStopped: Bool
    /// What that means, with the number and the words STOP and START as they are.
    let textsStopped: String
    /// A channel's badge when its number texted STOP.
    let textsOff = say("web.settings.textsOff", ["stop": "STOP"])
    let channels: [Channel]
    let noChannels: Bool
    /// The categories a new channel can get besides alerts.
    let categories: [Choice]
    let pushAvailable: Bool
    /// "Share my location with my responders during an alert", with its preview.
    var location: LocationSettingsView?

    struct PlannedPause {
        let id: String
        /// "From Sat 1 Aug, 00:00 until Fri 14 Aug, 00:00".
        let line: String
    }

    struct Channel {
        let id: String
        let kind: String
        let address: String
        /// "Alerts, Pings".
        let categories: String
        /// Waiting for the code sent there.
        let unproved: Bool
        /// How sending its code went: "Sending the code…", "Code sent 21:11.", "The code could
        /// not be sent (…)"; said only as far as it is true.
        let codeState: String?
        let codeFailed: Bool
        /// A number that texted STOP.
        let stopped: Bool
    }
}

/// A new webhook's signing secret, shown this once.
struct WebhookSecretPage: WebPage {
    static let template = "webhook-secret"
    static let section: NavSection? = .settings
    let title = say("web.webhookSecret.title")
    let address: String
    let secret: String
    /// "Every message to **https://…** is signed with this secret in the LifeSignal-Signature header. …"
    let signed: Emphasis

    init(address: String, secret: String) {
        self.address = address
        self.secret = secret
        signed = Emphasis("web.webhookSecret.signed", "address", address, ["header": "LifeSignal-Signature"])
    }
}
