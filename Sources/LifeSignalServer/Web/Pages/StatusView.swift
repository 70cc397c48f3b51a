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

    /// `about`: the status is someone else's, so its times give their clock beside the reader's.
    init(_ status: CheckInStatus, about: Bool = false) {
        let zone = about ? status.timeZone : nil
        periodSeconds = status.periodSeconds ?? 86400
        let urgency = StatusRule.urgency(secondsLeft: status.secondsLeft, periodSeconds: periodSeconds)
        (tone, label) =
            switch status.state {
            case .alert: ("alert", "Alert active")
            case .paused: ("paused", "Paused until \(WebController.formatDate(status.pausedUntil, about: zone))")
            case .watching: ("watching", "Watching over others")
            case .nonResponsive: ("overdue", "Overdue")
            case .ok: urgency == .close ? ("close", "Getting close") : ("plenty", "Plenty of time")
            }
        left =
            status.secondsLeft >= 0
            ? "\(WebController.duration(status.secondsLeft)) left" : "overdue by \(WebController.duration(status.secondsLeft))"
        deadline = WebController.formatDate(status.deadline, about: zone)
        deadlineMs = WebController.millis(status.deadline)
        serverNowMs = WebController.millis(status.deadline.addingTimeInterval(-Double(status.secondsLeft)))
        lastCheckIn = WebController.formatDate(status.lastCheckInAt, about: zone)
        isAlert = status.state == .alert
        isWatching = status.state == .watching
        hasIncident = status.openIncident != nil
        incidentID = status.openIncident?.id.description
    }
}
