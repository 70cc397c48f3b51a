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
                let preview = try await drills.timelinePreview(caller).map { step in
                    TimelinePage.PreviewStep(
                        at: WebController.formatDate(step.at), summary: step.summary, hasResponders: !step.responders.isEmpty,
                        responders: step.responders.map { responder in
                            TimelinePage.PreviewStep.Responder(
                                name: responder.name,
                                channels: responder.channels.map { WebController.channelLabels[$0] ?? $0.rawValue }.joined(separator: ", "))
                        })
                }
                let entries = try await timeline.timeline(caller)
                let verification = try await timeline.verifyTimeline(caller)
                return try await page(
                    TimelinePage(
                        preview: preview, noPreview: preview.isEmpty, watchOnly: caller.user.watchOnly,
                        entries: entries.suffix(100).reversed().map { entry in
                            TimelinePage.Entry(sequence: entry.sequence, at: WebController.formatDate(entry.at), summary: entry.summary)
                        },
                        count: entries.count, valid: verification.valid, firstBad: verification.firstBadSequence ?? 0
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
                    return flashRedirect("/drills/\(report.id)", "Drill sent to every responder on every channel.", context)
                } catch let error as ServiceError {
                    return flashRedirect("/timeline", error.message, context)
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
                            when: WebController.formatDate(report.createdAt),
                            recipients: report.recipients.map { RecipientView(name: $0.name, deliveries: $0.deliveries) },
                            noRecipients: report.recipients.isEmpty, pending: pending
                        ), context: context)
                } catch let error as ServiceError {
                    return flashRedirect("/timeline", error.message, context)
                }
            }
        }
    }
}
