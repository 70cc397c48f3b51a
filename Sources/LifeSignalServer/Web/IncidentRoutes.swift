import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalModels

/// The web app's pages for an alert about someone a responder watches over, and what they can do about it.
struct IncidentRoutes: WebPageGroup {
    let pages: WebPages
    let checkIns: CheckIns
    let contacts: Contacts
    let incidents: Incidents

    func addRoutes(to web: RouterGroup<WebContext>) {
        web.get("/incidents/{id}") { _, context in
            try await signedIn(context) { caller in
                guard let id = context.parameters.get("id").flatMap(IncidentID.init(string:)) else { return Response.redirect("/contacts") }
                do {
                    let report = try await incidents.incidentReport(caller, id: id)
                    let incident = report.incident
                    let isMine = incident.userID == caller.user.id
                    let name = "\(report.user.firstName) \(report.user.lastName)"
                    // What actually happened to each alert, in words (while it is open), and the
                    // number a responder can call or text.
                    var summary: IncidentPage.ToldSummary?
                    var phone: String?
                    if incident.isOpen {
                        let status = try? await (isMine ? checkIns.status(caller) : checkIns.status(caller, of: incident.userID))
                        if let open = status?.openIncident, open.id == incident.id, let responders = open.responders, !responders.isEmpty {
                            summary = IncidentPage.ToldSummary(lines: responders.map(ResponderLine.init))
                        }
                        if !isMine {
                            phone = try? await contacts.contacts(caller).dependents.first { $0.userID == incident.userID }?.phone.nonEmpty
                        }
                    }
                    return try await page(
                        IncidentPage(
                            title: "\(name) — incident", id: id.description, userID: incident.userID.description,
                            name: name, firstName: report.user.firstName.isEmpty ? name : report.user.firstName,
                            note: report.user.emergencyNote?.nonEmpty,
                            kind: incident.kind == .manualAlert ? "SOS alert" : "Missed check-in",
                            isSOS: incident.kind == .manualAlert,
                            since: WebController.formatDate(incident.openedAt), open: incident.resolvedAt == nil,
                            resolved: incident.resolvedAt.map(WebController.formatDate),
                            resolution: incident.resolution.map { "\($0.rawValue)".replacingOccurrences(of: "_", with: " ") }?.nonEmpty,
                            acknowledgedBy: report.acknowledgedByName?.nonEmpty,
                            acknowledgedByMe: incident.acknowledgedBy == caller.user.id,
                            isMine: isMine, isResponder: !isMine, phone: phone, summary: summary,
                            recipients: report.recipients.map { RecipientView(name: $0.name, deliveries: $0.deliveries) },
                            checkInID: UUID().uuidString.lowercased()
                        ), context: context)
                } catch let error as ServiceError {
                    return flashRedirect("/contacts", error.message, context)
                }
            }
        }
        web.post("/incidents/{id}/acknowledge") { _, context in
            let id = context.parameters.get("id") ?? ""
            return try await action(context, to: "/incidents/\(id)") { caller in
                guard let incident = IncidentID(string: id) else { return nil }
                _ = try await incidents.acknowledge(caller, incident: incident)
                return "You're on it. We are telling them and the other responders."
            }
        }
        web.post("/incidents/{id}/resolve") { _, context in
            let id = context.parameters.get("id") ?? ""
            return try await action(context, to: "/incidents/\(id)") { caller in
                guard let incident = IncidentID(string: id) else { return nil }
                _ = try await incidents.resolveIncident(caller, incident: incident)
                return "Incident resolved."
            }
        }
        web.post("/incidents/{id}/check-in") { _, context in
            let id = context.parameters.get("id") ?? ""
            return try await action(context, to: "/incidents/\(id)") { caller in
                guard let user = UserID(string: context.form["user"] ?? "") else { return nil }
                let checkIn = CheckInID(string: context.form["checkInID"] ?? "") ?? CheckInID(UUID())
                _ = try await incidents.checkInOnBehalf(caller, of: user, id: checkIn)
                return "Checked in on their behalf."
            }
        }
    }
}
