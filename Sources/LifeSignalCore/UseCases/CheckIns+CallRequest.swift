import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// "I'm OK, but please call me today": the graded answer of the web and app button, the `CALL
/// ME` text, `lifesignal check-in --call-me` and (later) key 2 of the daily call. One step for
/// all of them, inside the check-in's transaction.
extension ServiceCore {
    /// Tells each of `user`'s responders, quietly (`call_request`: no incident, no alert
    /// routing), that she checked in and would like a call today. Each responder is told at
    /// most once per calendar day in her zone (the step key holds the day), however often or
    /// however she asks. Her timeline keeps the check-in ("…; asked for a call today"), each
    /// notice, and a line when nobody was told.
    func askForCall(_ user: User, source: CheckIn.Source, tx: StoreTransaction, events: PendingEvents) async throws -> CallRequest {
        let now = self.now
        let responders = try await tx.links.responders(of: user.id)
        guard !responders.isEmpty else {
            try await tx.timeline.append(
                user.id, at: now, summary: "Nobody to ask for a call: no responders", CallRequestUnsent(reason: "nobody"))
            return CallRequest(outcome: .nobody)
        }
        let name = Self.displayName(of: user)
        let zone = HumanTime.zone(user.timeZone)
        let day = StepKey.localDay(now, in: zone)
        let how = Self.callRequestHowKey(source)
        let drafts = responders.map { responder in
            NotificationDraft(
                recipient: responder.id, kind: .callRequest, subject: user.id,
                stepKey: .callRequest(person: user.id, day: day, to: responder.id), knownRecipient: responder
            ) { w in
                (
                    w("callRequest.title", ["name": name]),
                    w("callRequest.body", ["name": name, "how": w(how), "when": w.time(now, subject: zone, now: now)])
                )
            }
        }
        let sent = try await notify(drafts, tx: tx, events: events)
        let told = zip(responders, sent).compactMap { responder, notification in notification.map { _ in responder } }
        guard !told.isEmpty else {
            try await tx.timeline.append(
                user.id, at: now, summary: "Already asked for a call today: nobody told again",
                CallRequestUnsent(reason: "already_asked"))
            return CallRequest(outcome: .alreadyAsked)
        }
        return CallRequest(outcome: .asked, told: told.map { Self.displayName(of: $0) })
    }

    /// The answer to a retried check-in that asked for a call: nothing is sent again.
    func repeatedCallRequest(of userID: UserID, tx: StoreTransaction) async throws -> CallRequest {
        try await tx.links.responders(of: userID).isEmpty ? CallRequest(outcome: .nobody) : CallRequest(outcome: .alreadyAsked)
    }

    /// How she asked, as a responder reads it ("on the web", "by text").
    static func callRequestHowKey(_ source: CheckIn.Source) -> String {
        switch source {
        case .app: "callRequest.how.app"
        case .web: "callRequest.how.web"
        case .cli: "callRequest.how.cli"
        case .apiToken: "callRequest.how.apiToken"
        case .smsReply: "callRequest.how.text"
        case .phoneKeypad: "callRequest.how.phone"
        case .dailyCall: "callRequest.how.dailyCall"
        case .inboundCall: "callRequest.how.phone"
        // None asks for a call (a ping's answer, a responder's check-in, a device link); said plainly.
        case .pingAnswer, .responder, .device: "callRequest.how.app"
        }
    }
}
