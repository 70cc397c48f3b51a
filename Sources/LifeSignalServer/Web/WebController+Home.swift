import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalModels
import LifeSignalRules

extension WebController {
    func addHomeRoutes(to web: RouterGroup<WebContext>) {
        web.get("/") { _, context in
            try await signedIn(context) { caller in
                let user = try await service.profile(caller)
                let status = try await service.status(caller)
                var values: [String: Any] = [
                    "title": "Check in", "nav_home": true,
                    "status": Self.statusView(status),
                    "checkInID": UUID().uuidString.lowercased(),
                    "interval": Self.intervalChoices.first { $0.0 == user.schedule.nominalSeconds }?.1
                        ?? Self.duration(user.schedule.nominalSeconds),
                    "reminder": Self.reminderChoices.first { $0.0 == user.reminders }?.1 ?? "",
                    "graceMinutes": user.graceMinutes,
                    "intervals": Self.intervalOptions(selected: user.schedule.nominalSeconds),
                    "reminders": Self.reminderOptions(selected: user.reminders),
                ]
                if let lists = try? await service.contacts(caller) {
                    values["pendingPings"] = lists.responders.contains { $0.incomingPing != nil }
                }
                return try await page("home", values, context: context)
            }
        }
        web.post("/check-in") { request, context in
            let id = CheckInID(string: context.form["id"] ?? "") ?? CheckInID(UUID())
            let clientAt = context.form["clientAt"].flatMap { Double($0) }.map { Date(timeIntervalSince1970: $0 / 1000) }
            if request.headers[.accept]?.contains("application/json") == true {
                guard let caller = context.caller else { return Response(status: .unauthorized) }
                do {
                    let result = try await service.checkIn(caller, id: id, clientAt: clientAt, source: .web)
                    return Response(status: result.duplicate ? .ok : .created)
                } catch let error as ServiceError {
                    return Response(status: ErrorMiddleware<WebContext>.status(of: error.kind))
                }
            }
            return try await action(context, to: "/") { caller in
                _ = try await service.checkIn(caller, id: id, clientAt: clientAt, source: .web)
                return "Checked in. Your responders know you're OK."
            }
        }
        web.post("/rhythm") { _, context in
            // A new rhythm moves the deadline: it is confirmed on a page that says where to.
            if context.form["confirm"] != "yes", let caller = context.caller,
                let seconds = Int(context.form["interval"] ?? ""),
                let reminders = ReminderChoice(rawValue: context.form["reminders"] ?? "")
            {
                var changed = try await service.profile(caller)
                changed.schedule = .interval(seconds: seconds)
                changed.reminders = reminders
                return try await page("confirm-rhythm", [
                    "title": "Change your rhythm", "nav_home": true, "interval": seconds, "reminders": reminders.rawValue,
                    "intervalLabel": Self.intervalChoices.first { $0.0 == seconds }?.1 ?? Self.duration(seconds),
                    "reminderLabel": Self.reminderChoices.first { $0.0 == reminders }?.1 ?? "",
                    "deadline": Self.formatDate(Deadline.of(changed)),
                ], context: context)
            }
            return try await action(context, to: "/") { caller in
                _ = try await service.updateProfile(caller, ProfileChanges(
                    schedule: Int(context.form["interval"] ?? "").map { .interval(seconds: $0) },
                    reminders: ReminderChoice(rawValue: context.form["reminders"] ?? "")))
                return "Check-in settings saved."
            }
        }
        web.post("/sos") { _, context in
            try await action(context, to: "/") { caller in
                guard context.form["confirm"] == "yes" else {
                    throw ServiceError(.invalid, code: "confirm", "Tick the box to confirm you want to alert your responders.")
                }
                _ = try await service.raiseAlert(caller)
                return "Alert sent. Your responders are being told now."
            }
        }
        web.post("/sos/clear") { _, context in
            try await action(context, to: "/") { caller in
                guard context.form["confirm"] == "yes" else {
                    throw ServiceError(.invalid, code: "confirm", "Tick the box to confirm you are safe.")
                }
                _ = try await service.clearAlert(caller)
                return "Alert cleared. Your responders are told you're safe."
            }
        }
        web.get("/events") { _, context in
            guard let caller = context.caller else { return Response(status: .unauthorized) }
            let lines = EventStreamController.lines(
                events: try service.events.subscribe(caller.user.id, configuration: service.configuration), keepAlive: .seconds(15))
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", .init("X-Accel-Buffering")!: "no"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "retry: 3000\n\n: connected\n\n"))
                    for await line in lines { try await writer.write(ByteBuffer(string: line)) }
                    try await writer.finish(nil)
                })
        }
    }
}
