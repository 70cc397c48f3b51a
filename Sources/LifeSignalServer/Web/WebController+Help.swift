import Foundation
import LifeSignalModels
import LifeSignalRules

/// The words the pages use for "help is coming": what actually happened to each alert, said
/// only as far as it is true.
extension WebController {
    /// The confirmation after "I'm OK", from the status before it: never claims responders
    /// know what they don't. Only a missed check-in's all-clear tells anyone anything.
    static func checkedInMessage(before status: CheckInStatus, hasResponders: Bool) -> String {
        if status.state == .alert {
            return "Checked in. Your emergency alert is still active: hold “I'm safe” to clear it."
        }
        if !hasResponders { return "Checked in. Nobody is watching over you yet — add someone to watch over you." }
        if let told = status.openIncident?.responders, !told.isEmpty {
            return "Checked in. \(LifeSignalFormat.names(told.map(\.name))) \(told.count == 1 ? "is" : "are") being told you're OK."
        }
        return "Checked in."
    }

    /// "text delivered 21:11", "text sent 21:11, not yet confirmed", "phone call answered
    /// 21:12 (e-mail failed)", "e-mail failed, trying a text", "could not be reached (e-mail and
    /// text failed)", "on it since 21:14". Only a confirmed delivery is said as delivered.
    static func progressLine(_ progress: ResponderProgress) -> String {
        var parts: [String] = []
        let deliveries = progress.deliveries
        if let done = deliveries.last(where: { $0.status == .delivered }) ?? deliveries.last(where: { $0.status == .sent }) {
            // What failed on the way is said too: the person sees what actually happened.
            let failed = unique(deliveries.filter { $0.status == .failed }.map { channelWord($0.channel) })
            parts.append(
                "\(outcomeWords(done)) \(clockTime(done.updatedAt))\(done.status == .sent ? ", not yet confirmed" : "")"
                    + (failed.isEmpty ? "" : " (\(LifeSignalFormat.names(failed)) failed)"))
        } else {
            let failed = deliveries.filter { $0.status == .failed }.map { channelWord($0.channel) }
            let trying = deliveries.filter { $0.status == .queued }.map { channelWord($0.channel) }
            let failedWords = LifeSignalFormat.names(unique(failed))
            switch (failed.isEmpty, trying.isEmpty) {
            case (true, true): parts.append("not told yet")
            case (true, false): parts.append("sending \(article(trying[0]))…")
            case (false, false): parts.append("\(failedWords) failed, trying \(article(trying[0]))")
            case (false, true): parts.append("could not be reached (\(failedWords) failed)")
            }
        }
        if let since = progress.acknowledgedAt { parts.append("on it since \(clockTime(since))") }
        return parts.joined(separator: ", ")
    }

    /// "text delivered", "phone call answered", "text sent", and for the development log what
    /// really happened: nothing left the server.
    static func outcomeWords(_ delivery: DeliveryProof) -> String {
        if delivery.channel == .log { return "written to the server log (development)" }
        let confirmed = delivery.channel == .voice ? "answered" : "delivered"
        return "\(channelWord(delivery.channel)) \(delivery.status == .delivered ? confirmed : "sent")"
    }

    /// The channel as people say it. The development log stands in for a text to the number.
    static func channelWord(_ kind: ChannelKind) -> String {
        switch kind {
        case .sms, .log: "text"
        case .voice: "phone call"
        case .email: "e-mail"
        case .webPush, .apns, .ntfy, .inApp: "app notification"
        case .webhook: "webhook"
        }
    }

    private static func article(_ word: String) -> String {
        (word.first.map { "aeiou".contains($0) } ?? false) ? "an \(word)" : "a \(word)"
    }

    private static func unique(_ words: [String]) -> [String] {
        var seen: Set<String> = []
        return words.filter { seen.insert($0).inserted }
    }

    /// A time of day on the pages ("21:14"), in the reader's zone.
    static func clockTime(_ date: Date) -> String {
        HumanTime.clock(date, in: ReaderClock.current.zone)
    }
}

/// Lists of names and words as a sentence says them.
enum LifeSignalFormat {
    /// "Bob", "Bob and Cy", "Bob, Cy and Dee".
    static func names(_ names: [String]) -> String {
        switch names.count {
        case 0: ""
        case 1: names[0]
        default: names.dropLast().joined(separator: ", ") + " and " + names.last!
        }
    }
}
