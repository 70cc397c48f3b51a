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
            incident.acknowledgedAt.map { say("web.help.onItSince", ["name": name, "time": WebController.clockTime($0)]) }
                ?? say("web.help.onIt", ["name": name])
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
        let counts = ["reached": String(reached), "sent": String(sent)]
        switch (reached, sent) {
        case _ where total == 0: return say("web.help.nobodyTold")
        case (0, 0): return say("web.help.trying")
        case (0, _): return say("web.help.sent", counts, count: total)
        case (_, 0): return say("web.help.reached", counts, count: total)
        default: return say("web.help.reachedAndSent", counts, count: total)
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
        line = say("web.help.line", ["name": progress.name, "progress": WebController.progressLine(progress)])
        tone =
            switch progress.reach {
            case .reached: "plenty"
            case .sent, .trying: "close"
            case .unreachable: "overdue"
            }
    }
}
