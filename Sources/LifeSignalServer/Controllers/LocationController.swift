import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels

/// Her location, shared only during an alert: her own captures (`/v1/me/location`) and a
/// responder's look during an open alert about her (`/v1/incidents/{id}/location`).
struct LocationController {
    let locations: Locations

    func addRoutes(to router: some RouterMethods<AuthenticatedContext>) {
        router.on(Operations.recordLocation) { body, context in
            try await locations.record(
                context.caller,
                LocationCapture(
                    latitude: body.latitude, longitude: body.longitude, accuracyMeters: body.accuracyMeters,
                    capturedAt: body.capturedAt, source: body.source, failed: body.failed ?? false))
        }
        router.on(Operations.getLocation) { _, context in
            try await locations.own(context.caller)
        }
        router.on(Operations.getIncidentLocation) { input, context in
            try await locations.forIncident(context.caller, incident: input.id)
        }
    }
}
