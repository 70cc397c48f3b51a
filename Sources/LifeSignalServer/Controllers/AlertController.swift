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
        router.on(Operations.getIncident) { input, context in
            try await incidents.incidentReport(context.caller, id: input.id)
        }
        router.on(Operations.acknowledgeIncident) { input, context in
            try await incidents.acknowledge(context.caller, incident: input.id)
        }
        router.on(Operations.resolveIncident) { input, context in
            try await incidents.resolveIncident(context.caller, incident: input.id)
        }
        router.on(Operations.openSealedDetails) { input, context in
            try await sealedDetails.open(context.caller, incident: input.id, via: "api")
        }
    }
}
