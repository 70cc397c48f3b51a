import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalModels
import LifeSignalRules

/// The web app's pages for an alert about someone a responder watches over, and what they can do about it.
struct IncidentRoutes: WebPageGroup {
    let pages: WebPages
    let checkIns: CheckIns
    let contacts: Contacts
    let incidents: Incidents
    let profiles: Profiles
    let sealedDetails: SealedDetailsAccess
    let locations: Locations

    func addRoutes(to web: RouterGroup<WebContext>) {
        web.get("/incidents/{id}") { _, context in
            try await signedIn(context) { caller in
                guard let id = context.parameters.get("id").flatMap(IncidentID.init(string:)) else { return Response.redirect("/contacts") }
                return try await incidentPage(caller, id: id, context: context)
            }
        }
        // Sealed details are opened by asking (a POST, never a link a preview could follow) and
        // shown on the answer itself: they are in no URL, no redirect and no cache (`no-store`).
        web.post("/incidents/{id}/sealed-details") { _, context in
            try await signedIn(context) { caller in
                guard let id = context.parameters.get("id").flatMap(IncidentID.init(string:)) else { return Response.redirect("/contacts") }
                let opened: SealedDetailsView
                do {
                    opened = try await sealedDetails.open(caller, incident: id, via: "web")
                } catch let error as ServiceError where error.code != .unavailable {
                    return flashRedirect("/incidents/\(id)", WebController.said(error), context)
                }
                return try await incidentPage(caller, id: id, context: context, sealed: opened.details, planSealed: opened.planDetails)
            }
        }
        web.post("/incidents/{id}/acknowledge") { _, context in
            let id = context.parameters.get("id") ?? ""
            return try await action(context, to: "/incidents/\(id)") { caller in
                guard let incident = IncidentID(string: id) else { return nil }
                _ = try await incidents.acknowledge(caller, incident: incident)
                return say("web.flash.onIt")
            }
        }
        web.post("/incidents/{id}/resolve") { _, context in
            let id = context.parameters.get("id") ?? ""
            return try await action(context, to: "/incidents/\(id)") { caller in
                guard let incident = IncidentID(string: id) else { return nil }
                _ = try await incidents.resolveIncident(caller, incident: incident)
                return say("web.flash.incidentResolved")
            }
        }
        web.post("/incidents/{id}/check-in") { _, context in
            let id = context.parameters.get("id") ?? ""
            return try await action(context, to: "/incidents/\(id)") { caller in
                guard let user = UserID(string: context.form["user"] ?? "") else { return nil }
                let checkIn = CheckInID(string: context.form["checkInID"] ?? "") ?? CheckInID(UUID())
                _ = try await incidents.checkInOnBehalf(caller, of: user, id: checkIn)
                return say("web.flash.checkedInBehalf")
            }
        }
    }

    /// The alert's page; with `sealed`, the sealed details a responder has just opened.
    private func incidentPage(
        _ caller: Caller, id: IncidentID, context: WebContext, sealed: String? = nil, planSealed: String? = nil
    ) async throws -> Response {
        do {
            let report = try await incidents.incidentReport(caller, id: id)
            let incident = report.incident
            let isMine = incident.userID == caller.user.id
            let name = "\(report.user.firstName) \(report.user.lastName)"
            // The person's status: who was told (while it is open), and their zone, so a
            // responder reads their clock beside his own.
            let status = try await unlessRefused([.userNotFound]) {
                try await isMine ? checkIns.status(caller) : checkIns.status(caller, of: incident.userID)
            }
            var summary: IncidentPage.ToldSummary?
            if incident.isOpen, let open = status?.openIncident, open.id == incident.id, let responders = open.responders,
                !responders.isEmpty
            {
                summary = IncidentPage.ToldSummary(lines: responders.map(ResponderLine.init))
            }
            // The number a responder can call or text, while it is open.
            var phone: String?
            if incident.isOpen, !isMine {
                phone = try await contacts.contacts(caller).dependents.first { $0.userID == incident.userID }?.phone.nonEmpty
            }
            let firstName = report.user.firstName.isEmpty ? name : report.user.firstName
            let zone = isMine ? nil : status?.timeZone
            let me = try await profiles.profile(caller)
            var shown = IncidentPage(
                report: report, name: name, firstName: firstName, isMine: isMine, me: caller.user.id,
                since: WebController.formatDate(
                    incident.kind == .manualAlert ? incident.openedAt : incident.dueAt, about: zone),
                ended: incident.resolvedAt.map { WebController.formatDate($0, about: zone) },
                phone: phone, summary: summary,
                emergency: EmergencyCall(
                    theirs: phone.map(EmergencyNumber.forPhone) ?? EmergencyNumber.forPhone(me.phone),
                    mine: EmergencyNumber.forPhone(me.phone), firstName: firstName, isMine: isMine),
                checkInID: UUID().uuidString.lowercased(), sealed: sealed, planSealed: planSealed,
                plan: report.plan.map { IncidentPage.PlanShown($0, zone: zone) },
                activity: report.activity.map {
                    say(
                        "web.incident.activity.line",
                        ["device": $0.device, "when": WebController.formatDate($0.at, about: zone), "name": firstName])
                })
            // Her location, while the alert is open: read (and the first look recorded) only for
            // her responder; never on her own page or after the all-clear.
            if incident.isOpen, !isMine,
                let location = try await unlessRefused(
                    [.incidentNotFound, .incidentResolved],
                    {
                        try await locations.forIncident(caller, incident: incident.id)
                    })
            {
                shown.location = LocationShown(location, name: firstName)
                shown.locationNone =
                    location.sharing && location.isEmpty ? say("web.incident.location.none", ["name": firstName]) : nil
                shown.seenHint = say("web.incident.location.seenHint", ["name": firstName])
            }
            return try await page(shown, context: context)
        } catch let error as ServiceError where error.code != .unavailable {
            return flashRedirect("/contacts", WebController.said(error), context)
        }
    }
}
