import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// Words and times for people, in the terminal's time zone and this computer's language
/// (``CLIWords``). Durations stay in compact units (`2d 3h`), the same in every language.
enum Formatting {
    static var words: Words { CLIWords.current }

    /// "today at 21:30", "Tue 9 Dec, 09:30": the product's one rule (``HumanTime``).
    static func time(_ date: Date) -> String {
        HumanTime.phrase(date, in: .current, now: Date(), words: words)
    }

    /// `2d 3h`, `5h 12m` (`5h 12m 09s` with `showSeconds`, for the live countdown),
    /// `4m 09s`; negative durations read "… ago".
    static func duration(_ seconds: Int, showSeconds: Bool = false) -> String {
        let s = abs(seconds)
        let text =
            if s >= 86400 { "\(s / 86400)d \(s % 86400 / 3600)h" } else if s >= 3600 {
                "\(s / 3600)h \(String(format: "%02d", s % 3600 / 60))m" + (showSeconds ? String(format: " %02ds", s % 60) : "")
            } else { "\(s / 60)m \(String(format: "%02d", s % 60))s" }
        return seconds < 0 ? words("cli.ago", ["duration": text]) : text
    }

    static func state(_ status: CheckInStatus) -> String {
        switch status.state {
        case .ok: words("cli.state.ok")
        case .nonResponsive: words("cli.state.nonResponsive")
        case .paused: status.pausedUntil.map { words("cli.state.pausedUntil", ["when": time($0)]) } ?? words("cli.state.paused")
        case .alert: words("cli.state.alert")
        case .watching: words("cli.state.watching")
        }
    }

    /// One line: state and time left, as `status` prints and redraws it. The time left
    /// counts down from the server's `secondsLeft` (its clock is the truth), `elapsed`
    /// seconds after it was fetched.
    static func statusLine(_ status: CheckInStatus, elapsed: Int = 0, live: Bool = false) -> String {
        let left = status.secondsLeft - elapsed
        var parts = [state(status)]
        switch status.state {
        case .paused: parts.append(words("cli.status.afterPause"))
        case .watching: parts.append(words("cli.status.nothingExpected"))
        case .nonResponsive:
            parts.append(words("cli.status.passedAgo", ["duration": duration(abs(left)), "when": time(status.deadline)]))
        default:
            parts.append(
                left >= 0
                    ? words("cli.status.within", ["duration": duration(left, showSeconds: live), "when": time(status.deadline)])
                    : words("cli.status.passed", ["when": time(status.deadline)]))
        }
        if let incident = status.openIncident {
            var open = words(
                incident.kind == .manualAlert ? "cli.status.openAlert" : "cli.status.openMissed", ["when": time(incident.openedAt)])
            if let name = incident.acknowledgedByName { open += ", " + words("cli.status.onIt", ["name": name]) }
            parts.append(open)
        }
        return parts.joined(separator: " · ")
    }

    static func roles(_ roles: ContactRoles) -> String {
        [roles.isResponder ? words("cli.roles.responder") : nil, roles.isDependent ? words("cli.roles.dependent") : nil]
            .compactMap { $0 }.joined(separator: "+")
    }
}
