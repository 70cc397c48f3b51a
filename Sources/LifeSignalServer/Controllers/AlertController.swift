import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels

/// The manual alert (SOS) and the incidents responders act on.
struct AlertController {
    let incidents: Incidents
    let sealedDetails: SealedDetailsAccess

    func addRoutes(to router: some RouterMethods<AuthenticatedContext>) {
        router.on(Operations.raiseAlert) { _, context in
            try await incidents.raiseAlert(context.caller)
        }
        router.on(Operations.clearAlert) { _, context in
            try await incidents.clearAlert(context.caller)
        }
        router.on(Operations.getIncident) { _, context in
            try await incidents.incidentReport(context.caller, id: try context.id())
        }
        router.on(Operations.acknowledgeIncident) { _, context in
            try await incidents.acknowledge(context.caller, incident: try context.id())
        }
        router.on(Operations.resolveIncident) { _, context in
            try await incidents.resolveIncident(context.caller, incident: try context.id())
        }
        router.on(Operations.openSealedDetails) { _, context in
            try await sealedDetails.open(context.caller, incident: try context.id(), via: "api")
        }
    }
}
