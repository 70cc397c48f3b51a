import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels

/// Device check-in links: the person's `/v1/me/devices`, and the links themselves
/// (`POST /d/{secret}`), which need no sign-in — the secret is the key, and it opens nothing
/// but a check-in.
struct DeviceLinkController {
    let deviceLinks: DeviceLinks

    /// Where a link lives; only `POST` checks in (a preview fetching the address changes nothing).
    static let linkPath = "/d/{secret}"

    func addRoutes(to router: some RouterMethods<AuthenticatedContext>) {
        router.on(Operations.createDeviceLink) { body, context in
            try await deviceLinks.create(context.caller, name: body.name, resolvesAlerts: body.resolvesAlerts ?? false)
        }
        router.on(Operations.listDeviceLinks) { _, context in
            try await deviceLinks.list(context.caller)
        }
        router.on(Operations.revokeDeviceLink) { input, context in
            _ = try await deviceLinks.revoke(context.caller, id: input.id)
        }
    }

    /// The link's one answer is `200 OK` with "OK": nothing about whose it is or what it did.
    /// An unknown secret and a revoked one are the same `404`.
    func addLinkRoute(to router: some RouterMethods<AppRequestContext>) {
        router.post(RouterPath(Self.linkPath)) { _, context -> Response in
            let secret = context.parameters.get("secret") ?? ""
            guard try await deviceLinks.use(secret: secret) else {
                return Response(
                    status: .notFound, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                    body: .init(byteBuffer: .init(string: "Not found\n")))
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: .init(string: "OK\n")))
        }
    }
}
