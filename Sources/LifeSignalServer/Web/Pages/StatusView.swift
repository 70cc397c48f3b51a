import Foundation
import LifeSignalModels
import LifeSignalRules

/// The status of a person as the pages show it: colour class *and* words.
struct StatusView {
    let tone: String
    let label: String
    let left: String
    let deadline: String
    let deadlineMs: Int64
    let serverNowMs: Int64
    let periodSeconds: Int
    let lastCheckIn: String
    let isAlert: Bool
    let isWatching: Bool
    let hasIncident: Bool
    let incidentID: String?
    /// The link to an open incident that is not an SOS: a missed check-in, or late back from a plan.
    let incidentLine: String?
    /// Who set the pause that holds ("Set by Ada.", on a page about her), or her next pause ("Away from Saturday
    /// 12:00 until Monday 09:00."); nil when neither.
    let pauseNote: String?

    /// `about`: the status is someone else's, so its times give their clock beside the reader's.
    init(_ status: CheckInStatus, about: Bool = false) {
        let zone = about ? status.timeZone : nil
        periodSeconds = status.periodSeconds ?? 86400
        let urgency = StatusRule.urgency(secondsLeft: status.secondsLeft, periodSeconds: periodSeconds)
        (tone, label) =
            switch status.state {
            case .alert: ("alert", say("web.status.alert"))
            case .paused: ("paused", say("web.status.paused", ["when": WebController.formatDate(status.pausedUntil, about: zone)]))
            case .watching: ("watching", say("web.status.watching"))
            case .nonResponsive: ("overdue", say("web.status.overdue"))
            case .ok: urgency == .close ? ("close", say("web.status.close")) : ("plenty", say("web.status.plenty"))
            }
        left = say(
            status.secondsLeft >= 0 ? "web.status.left" : "web.status.overdueBy",
            ["duration": WebController.duration(status.secondsLeft)])
        deadline = WebController.formatDate(status.deadline, about: zone)
        deadlineMs = WebController.millis(status.deadline)
        serverNowMs = WebController.millis(status.deadline.addingTimeInterval(-Double(status.secondsLeft)))
        lastCheckIn = WebController.formatDate(status.lastCheckInAt, about: zone)
        isAlert = status.state == .alert
        isWatching = status.state == .watching
        hasIncident = status.openIncident != nil
        incidentID = status.openIncident?.id.description
        incidentLine = status.openIncident.map { say($0.kind == .planOverdue ? "web.person.planOpen" : "web.person.missedOpen") }
        if about, status.state == .paused, let name = status.pausedBy {
            pauseNote = say("web.status.pausedBy", ["name": name])
        } else if let next = status.nextPause {
            pauseNote = say(
                "web.status.nextPause",
                ["from": WebController.formatDate(next.from, about: zone), "until": WebController.formatDate(next.until, about: zone)])
        } else {
            pauseNote = nil
        }
    }
}
