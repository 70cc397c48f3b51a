import Foundation
import LifeSignalModels
import LifeSignalRules

/// The words the pages use for "help is coming": what actually happened to each alert, said
/// only as far as it is true.
extension WebController {
    /// The confirmation after "I'm OK", from the status before it: never claims responders
    /// know what they don't. Only a missed check-in's all-clear tells anyone anything.
    static func checkedInMessage(before status: CheckInStatus, hasResponders: Bool) -> String {
        if status.state == .alert { return say("web.flash.checkedInAlertOn") }
        if !hasResponders { return say("web.flash.checkedInNobody") }
        if let told = status.openIncident?.responders, !told.isEmpty {
            return say("web.flash.checkedInTelling", ["names": LifeSignalFormat.names(told.map(\.name))], count: told.count)
        }
        return say("web.js.checkedIn")
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
            var line = say("web.progress.done", ["outcome": outcomeWords(done), "time": clockTime(done.updatedAt)])
            if done.status == .sent { line += ", " + say("web.progress.notConfirmed") }
            if !failed.isEmpty { line += " " + say("web.progress.alsoFailed", ["failed": LifeSignalFormat.names(failed)]) }
            parts.append(line)
        } else {
            let failed = deliveries.filter { $0.status == .failed }.map(\.channel)
            let trying = deliveries.filter { $0.status == .queued }.map(\.channel)
            let failedWords = LifeSignalFormat.names(unique(failed.map(channelWord)))
            switch (failed.isEmpty, trying.first) {
            case (true, nil): parts.append(say("web.progress.notYet"))
            case (true, let next?): parts.append(say("web.progress.sending", ["channel": article(next)]))
            case (false, let next?): parts.append(say("web.progress.failedTrying", ["failed": failedWords, "channel": article(next)]))
            case (false, nil): parts.append(say("web.progress.unreachable", ["failed": failedWords]))
            }
        }
        if let since = progress.acknowledgedAt { parts.append(say("web.progress.onItSince", ["time": clockTime(since)])) }
        return parts.joined(separator: ", ")
    }

    /// "text delivered", "phone call answered", "text sent", and for the development log what
    /// really happened: nothing left the server.
    static func outcomeWords(_ delivery: DeliveryProof) -> String {
        if delivery.channel == .log { return say("web.progress.log") }
        let delivered = delivery.status == .delivered
        return switch delivery.channel {
        case .sms, .log: say(delivered ? "web.outcome.textDelivered" : "web.outcome.textSent")
        case .voice: say(delivered ? "web.outcome.callAnswered" : "web.outcome.callSent")
        case .email: say(delivered ? "web.outcome.emailDelivered" : "web.outcome.emailSent")
        case .webPush, .apns, .ntfy, .inApp: say(delivered ? "web.outcome.appDelivered" : "web.outcome.appSent")
        case .webhook: say(delivered ? "web.outcome.webhookDelivered" : "web.outcome.webhookSent")
        }
    }

    /// The channel as people say it. The development log stands in for a text to the number.
    static func channelWord(_ kind: ChannelKind) -> String {
        switch kind {
        case .sms, .log: say("web.channel.text")
        case .voice: say("web.channel.call")
        case .email: say("web.channel.email")
        case .webPush, .apns, .ntfy, .inApp: say("web.channel.app")
        case .webhook: say("web.channel.webhook")
        }
    }

    /// The channel with its article, as "trying a text" says it.
    private static func article(_ kind: ChannelKind) -> String {
        switch kind {
        case .sms, .log: say("web.channel.aText")
        case .voice: say("web.channel.aCall")
        case .email: say("web.channel.anEmail")
        case .webPush, .apns, .ntfy, .inApp: say("web.channel.anApp")
        case .webhook: say("web.channel.aWebhook")
        }
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
    /// "Bob", "Bob and Cy", "Bob, Cy and Dee", in the reader's language.
    static func names(_ names: [String]) -> String {
        ReaderClock.current.words.list(names)
    }
}
