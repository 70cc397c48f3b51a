import LifeSignalModels

/// What would happen on a missed check-in, the drill button, and the hash-chained history.
struct TimelinePage: WebPage {
    static let template = "timeline"
    static let section: NavSection? = .settings
    let title = say("web.timeline.title")
    let preview: [PreviewStep]
    let noPreview: Bool
    /// Watch-only: no check-ins, so no preview; a drill tests what an SOS would send.
    let watchOnly: Bool
    let entries: [Entry]
    let count: Int
    let valid: Bool
    /// The first entry whose hash does not match, when the chain is broken.
    let firstBad: Int
    /// "12 entries, each chained to the one before by its hash." and "Chain broken at entry 7".
    let entriesLine: String
    let brokenLine: String

    /// One step of the escalation a missed check-in would start.
    struct PreviewStep {
        let at: String
        let summary: String
        let hasResponders: Bool
        let responders: [Responder]

        struct Responder {
            let name: String
            /// "E-mail, Text message".
            let channels: String
        }
    }

    struct Entry {
        let sequence: Int
        let at: String
        let summary: String
    }
}

/// A drill's report: what reached each responder, looked at again until all is settled.
struct DrillPage: WebPage {
    static let template = "drill"
    static let section: NavSection? = .settings
    let title = say("web.timeline.drillHeading")
    /// "Drill of today at 09:30".
    let heading: String
    let recipients: [RecipientView]
    let noRecipients: Bool
    let pending: Bool
}
