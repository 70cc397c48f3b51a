import Foundation
import LifeSignalModels
import LifeSignalRules

/// Words and times for people, in the terminal's time zone.
enum Formatting {
    /// "today at 21:30", "Tue 9 Dec, 09:30": the product's one rule (``HumanTime``).
    static func time(_ date: Date) -> String {
        HumanTime.phrase(date, in: .current, now: Date())
    }

    /// `2d 3h`, `5h 12m` (`5h 12m 09s` with `showSeconds`, for the live countdown),
    /// `4m 09s`; negative durations read "… ago".
    static func duration(_ seconds: Int, showSeconds: Bool = false) -> String {
        let s = abs(seconds)
        let text =
            if s >= 86400 { "\(s / 86400)d \(s % 86400 / 3600)h" } else if s >= 3600 {
                "\(s / 3600)h \(String(format: "%02d", s % 3600 / 60))m" + (showSeconds ? String(format: " %02ds", s % 60) : "")
            } else { "\(s / 60)m \(String(format: "%02d", s % 60))s" }
        return seconds < 0 ? "\(text) ago" : text
    }

    static func state(_ status: CheckInStatus) -> String {
        switch status.state {
        case .ok: "OK"
        case .nonResponsive: "NON-RESPONSIVE"
        case .paused: "PAUSED" + (status.pausedUntil.map { " until \(time($0))" } ?? "")
        case .alert: "ALERT"
        case .watching: "WATCHING OVER OTHERS"
        }
    }

    /// One line: state and time left, as `status` prints and redraws it. The time left
    /// counts down from the server's `secondsLeft` (its clock is the truth), `elapsed`
    /// seconds after it was fetched.
    static func statusLine(_ status: CheckInStatus, elapsed: Int = 0, live: Bool = false) -> String {
        let left = status.secondsLeft - elapsed
        var line = "\(state(status)) · "
        switch status.state {
        case .paused: line += "deadline after the pause"
        case .watching: line += "no check-ins expected"
        case .nonResponsive:
            line += "deadline passed \(duration(left).replacingOccurrences(of: " ago", with: "")) ago (\(time(status.deadline)))"
        default:
            line +=
                left >= 0
                ? "check in within \(duration(left, showSeconds: live)) (by \(time(status.deadline)))"
                : "deadline passed \(time(status.deadline))"
        }
        if let incident = status.openIncident {
            line += " · open \(incident.kind == .manualAlert ? "alert" : "missed check-in") since \(time(incident.openedAt))"
            if let name = incident.acknowledgedByName { line += ", \(name) is on it" }
        }
        return line
    }

    static func roles(_ roles: ContactRoles) -> String {
        [roles.isResponder ? "responder" : nil, roles.isDependent ? "dependent" : nil].compactMap { $0 }.joined(separator: "+")
    }
}
