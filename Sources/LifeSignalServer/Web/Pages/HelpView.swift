import LifeSignalModels

/// The person's own open incident: who was told, how it went, who is on it.
struct HelpView {
    let heading: String
    let onIt: String?
    let hasOnIt: Bool
    let responders: [ResponderLine]
    let nobody: Bool

    init(_ incident: IncidentSummary) {
        let responders = incident.responders ?? []
        onIt = incident.acknowledgedByName.map { name in
            "\(name) is on it" + (incident.acknowledgedAt.map { ", since \(WebController.clockTime($0))" } ?? "") + "."
        }
        hasOnIt = onIt != nil
        heading = Self.heading(responders.map(\.reach))
        self.responders = responders.map(ResponderLine.init)
        nobody = responders.isEmpty
    }

    /// "1 of 2 responders reached", counting only deliveries that were confirmed; alerts
    /// handed to a provider and not yet confirmed are said as such, never as reached.
    static func heading(_ reaches: [ResponderProgress.Reach]) -> String {
        let total = reaches.count
        let reached = reaches.filter { $0 == .reached }.count
        let sent = reaches.filter { $0 == .sent }.count
        let of = "of \(total) responder\(total == 1 ? "" : "s")"
        switch (reached, sent) {
        case _ where total == 0: return "Nobody has been told"
        case (0, 0): return "Trying to reach your responders"
        case (0, _): return "Alert sent to \(sent) \(of), not yet confirmed"
        case (_, 0): return "\(reached) \(of) reached"
        default: return "\(reached) \(of) reached, \(sent) more sent, not yet confirmed"
        }
    }
}

/// "Bob: text delivered 21:11", coloured by how far the alert got.
struct ResponderLine {
    let userID: String
    let line: String
    let tone: String

    init(_ progress: ResponderProgress) {
        userID = progress.userID.description
        line = "\(progress.name): \(WebController.progressLine(progress))"
        tone =
            switch progress.reach {
            case .reached: "plenty"
            case .sent, .trying: "close"
            case .unreachable: "overdue"
            }
    }
}
