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
        let reached = responders.filter { $0.reach == .reached }.count
        heading =
            if responders.isEmpty { "Nobody has been told" } else if reached == 0 { "Trying to reach your responders" } else {
                "\(reached) of \(responders.count) responder\(responders.count == 1 ? "" : "s") reached"
            }
        self.responders = responders.map(ResponderLine.init)
        nobody = responders.isEmpty
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
        tone = progress.reach == .reached ? "plenty" : progress.reach == .trying ? "close" : "overdue"
    }
}
