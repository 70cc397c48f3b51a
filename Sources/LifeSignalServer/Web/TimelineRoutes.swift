import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels

/// The web app's pages for the timeline, its check, and drills.
struct TimelineRoutes: WebPageGroup {
    let pages: WebPages
    let drills: Drills
    let timeline: Timeline

    func addRoutes(to web: RouterGroup<WebContext>) {
        web.get("/timeline") { _, context in
            try await signedIn(context) { caller in
                let steps = try await drills.timelinePreview(caller)
                let summaries = WebController.previewSummaries(steps, graceMinutes: caller.user.graceMinutes)
                let preview = zip(steps, summaries).map { step, summary in
                    TimelinePage.PreviewStep(
                        at: WebController.formatDate(step.at), summary: summary, hasResponders: !step.responders.isEmpty,
                        responders: step.responders.map { responder in
                            TimelinePage.PreviewStep.Responder(
                                name: responder.name,
                                channels: responder.channels.map(WebController.channelLabel).joined(separator: ", "))
                        })
                }
                let entries = try await timeline.timeline(caller)
                let verification = try await timeline.verifyTimeline(caller)
                // The record is English and never rewritten; each entry is read in the reader's words.
                let shown = Array(entries.suffix(100))
                let sentences = try await timeline.sentences(caller, for: shown)
                return try await page(
                    TimelinePage(
                        preview: preview, noPreview: preview.isEmpty, watchOnly: caller.user.watchOnly,
                        entries: shown.reversed().map { entry in
                            TimelinePage.Entry(
                                sequence: entry.sequence, at: WebController.formatDate(entry.at),
                                summary: sentences[entry.sequence] ?? entry.summary)
                        },
                        count: entries.count, valid: verification.valid, firstBad: verification.firstBadSequence ?? 0,
                        entriesLine: say("web.timeline.entries", count: entries.count),
                        brokenLine: say("web.timeline.chainBroken", ["entry": String(verification.firstBadSequence ?? 0)])
                    ), context: context)
            }
        }
        web.get("/timeline/export.json") { _, context in
            guard let caller = context.caller else { return Response.redirect("/signin") }
            // The whole history, however long: one JSON array written a page at a time.
            return Response(
                status: .ok,
                headers: [
                    .contentType: "application/json", .cacheControl: "no-store",
                    .contentDisposition: "attachment; filename=\"lifesignal-timeline.json\"",
                ],
                body: ResponseBody { writer in
                    var first = true
                    try await writer.write(ByteBuffer(string: "["))
                    try await timeline.forEachTimelinePage(caller) { page in
                        for entry in page {
                            try await writer.write(ByteBuffer(string: first ? "" : ","))
                            try await writer.write(ByteBuffer(bytes: try APICoding.encoder.encode(entry)))
                            first = false
                        }
                    }
                    try await writer.write(ByteBuffer(string: "]"))
                    try await writer.finish(nil)
                })
        }
        web.post("/drills") { _, context in
            try await signedIn(context) { caller in
                do {
                    let report = try await drills.runDrill(caller)
                    return flashRedirect("/drills/\(report.id)", say("web.timeline.drillSent"), context)
                } catch let error as ServiceError {
                    return flashRedirect("/timeline", WebController.said(error), context)
                }
            }
        }
        web.get("/drills/{id}") { _, context in
            try await signedIn(context) { caller in
                guard let id = context.parameters.get("id").flatMap(DrillID.init(string:)) else { return Response.redirect("/timeline") }
                do {
                    let report = try await drills.drill(caller, id: id)
                    // Until every recipient has a settled delivery, the page looks again by itself.
                    let pending = report.recipients.contains { recipient in
                        recipient.deliveries.isEmpty || recipient.deliveries.contains { $0.status == .queued }
                    }
                    return try await page(
                        DrillPage(
                            heading: say("web.drill.heading", ["when": WebController.formatDate(report.createdAt)]),
                            recipients: report.recipients.map { recipient in
                                // Her own row is the test of her daily call.
                                guard let checkedIn = recipient.checkedIn else {
                                    return RecipientView(name: recipient.name, deliveries: recipient.deliveries)
                                }
                                return RecipientView(
                                    name: say("web.drill.dailyCall"), deliveries: recipient.deliveries,
                                    note: checkedIn ? say("web.drill.dailyCall.checkedIn") : nil)
                            },
                            noRecipients: report.recipients.isEmpty, pending: pending
                        ), context: context)
                } catch let error as ServiceError {
                    return flashRedirect("/timeline", WebController.said(error), context)
                }
            }
        }
    }
}

extension WebController {
    /// What each step of a missed check-in's escalation does, in the reader's words, from the
    /// steps themselves: "Reminder to you: check in within 30 minutes", "Last call to you: …",
    /// "Alert Bob by text", "Reminder 2 to Bob by text, unless someone says “I'm on it”".
    static func previewSummaries(_ steps: [PreviewStep], graceMinutes: Int) -> [String] {
        // The last call comes at the deadline: a reminder's lead is how long before it.
        let deadline = steps.first { $0.kind == .lastCall }?.at
        var repeats = 1
        return steps.map { step in
            let who =
                step.responders.isEmpty
                ? say("web.timeline.nobody")
                : LifeSignalFormat.names(
                    step.responders.map { responder in
                        say(
                            "web.timeline.whoBy",
                            ["name": responder.name, "channel": responder.channels.first.map(channelWord) ?? say("web.timeline.noChannel")])
                    })
            switch step.kind {
            case .reminder:
                let lead = deadline.map { Int($0.timeIntervalSince(step.at).rounded()) } ?? 0
                return lead > 0
                    ? say("web.timeline.stepReminder", ["duration": ReaderClock.current.words.duration(seconds: lead)]) : step.summary
            case .lastCall:
                return graceMinutes > 0
                    ? say("web.timeline.stepLastCall", count: graceMinutes) : say("web.timeline.stepLastCallNow")
            case .incident:
                return say("web.timeline.stepAlert", ["who": who])
            case .repeatNotification:
                repeats += 1
                return say("web.timeline.stepRepeat", ["number": String(repeats), "who": who])
            }
        }
    }
}
