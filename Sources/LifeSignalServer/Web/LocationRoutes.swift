import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalModels

/// The web app's side of location sharing: the switch on the settings page, and the position a
/// page posts after one of her own actions (`app.js` reads it once with the browser's
/// geolocation, and never unless sharing is on).
struct LocationRoutes: WebPageGroup {
    let pages: WebPages
    let profiles: Profiles
    let locations: Locations

    func addRoutes(to web: RouterGroup<WebContext>) {
        web.post("/settings/location") { _, context in
            try await action(context, to: "/settings") { caller in
                let on = context.form["share"] == "on"
                let user = try await profiles.updateProfile(
                    caller, ProfileChanges(shareLocation: on, shareLocationAtCheckIns: on && context.form["atCheckIns"] == "on"))
                return say(
                    user.shareLocation
                        ? (user.shareLocationAtCheckIns ? "web.settings.location.savedCheckIns" : "web.settings.location.saved")
                        : "web.settings.location.off")
            }
        }
        // The page's script posts here (the session's CSRF token in a header): 201 stored, 409
        // when sharing is off (nothing stored), 400 for a position that is not one. It sends
        // how old the reading is (at most the 60 s it allows), never the device's clock.
        web.post("/location") { _, context in
            guard let caller = context.caller else { return Response(status: .unauthorized) }
            guard let source = LocationSource(rawValue: context.form["source"] ?? "") else { return Response(status: .badRequest) }
            let number = { (name: String) in context.form[name].flatMap(Double.init) }
            do {
                _ = try await locations.record(
                    caller,
                    LocationCapture(
                        latitude: number("latitude"), longitude: number("longitude"), accuracyMeters: number("accuracy"),
                        capturedAt: number("age").map { pages.now().addingTimeInterval(-min(max($0, 0), 60_000) / 1000) },
                        source: source,
                        failed: context.form["failed"] == "yes"))
                return Response(status: .created)
            } catch let error as ServiceError where error.code != .unavailable {
                return Response(status: ErrorMiddleware<WebContext>.status(of: error.kind))
            }
        }
    }
}
