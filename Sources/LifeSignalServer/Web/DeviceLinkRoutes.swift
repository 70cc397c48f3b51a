import Foundation
import Hummingbird
import LifeSignalCore
import LifeSignalModels

/// "Check-in links": a button, a sensor or a shortcut that checks the person in. The list
/// (with when each last counted), a form for a new one, the page that shows its address once
/// (with a QR code and recipes), and revoking.
struct DeviceLinkRoutes: WebPageGroup {
    let pages: WebPages
    let deviceLinks: DeviceLinks

    func addRoutes(to web: RouterGroup<WebContext>) {
        web.get("/profile/devices") { _, context in
            try await signedIn(context) { caller in
                try await page(DeviceLinksPage(links: try await deviceLinks.list(caller)), context: context)
            }
        }
        web.post("/profile/devices") { _, context in
            // The address is shown once, in this page's body: never in a redirect's flash cookie.
            try await signedIn(context) { caller in
                do {
                    let made = try await deviceLinks.create(
                        caller, name: context.form["name"] ?? "", resolvesAlerts: context.form["resolvesAlerts"] == "on")
                    return try await page(NewDeviceLinkPage(made), context: context)
                } catch let error as ServiceError {
                    return flashRedirect("/profile/devices", WebController.said(error), context)
                }
            }
        }
        web.post("/profile/devices/:id/revoke") { _, context in
            try await action(context, to: "/profile/devices") { caller in
                let revoked = try await deviceLinks.revoke(caller, id: try context.id())
                return say("web.devices.revoked", ["device": revoked.name])
            }
        }
    }
}

/// Her check-in links and the form for a new one.
struct DeviceLinksPage: WebPage {
    static let template = "devices"
    static let section: NavSection? = .profile
    let title = say("web.devices.title")
    let links: [Row]
    let hasLinks: Bool
    let full: Bool

    struct Row {
        let id: String
        let name: String
        let used: String
        /// "Ends an open alert" or "Shown as activity during an alert".
        let during: String
    }

    init(links: [DeviceLink]) {
        self.links = links.map {
            Row(
                id: $0.id.description, name: $0.name, used: WebController.formatDate($0.lastUsedAt),
                during: say($0.resolvesAlerts ? "web.devices.endsAlerts" : "web.devices.activityOnly"))
        }
        hasLinks = !links.isEmpty
        full = links.count >= DeviceLink.limit
    }
}

/// A link just made: its address, once, with a QR code and recipes for common devices.
struct NewDeviceLinkPage: WebPage {
    static let template = "device-link"
    static let section: NavSection? = .profile
    let title = say("web.devices.newTitle")
    let name: String
    let url: String
    /// The QR code as a `data:` URL (the page's CSP allows `data:` images; nothing is fetched).
    let qr: String?
    let curl: String
    let homeAssistant: String

    init(_ made: NewDeviceLink) {
        name = made.link.name
        url = made.url
        qr = QRCodeSVG.svg(for: made.url, title: made.link.name).map {
            "data:image/svg+xml;base64," + Data($0.utf8).base64EncodedString()
        }
        curl = "curl -fsS -X POST \(made.url)"
        homeAssistant = """
            rest_command:
              lifesignal_check_in:
                url: "\(made.url)"
                method: POST
            """
    }
}
