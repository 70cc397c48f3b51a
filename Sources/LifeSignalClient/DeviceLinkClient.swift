import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalModels

/// The person's device check-in links: a button, a sensor or a shortcut that can only check her in.
@DependencyClient
public struct DeviceLinkClient: Sendable {
    /// Her links, oldest first (never their secrets).
    public var links: @Sendable () async throws -> [DeviceLink]
    /// Makes a link; its address is in the answer and never again.
    public var create: @Sendable (_ name: String, _ resolvesAlerts: Bool) async throws -> NewDeviceLink
    /// Revokes a link at once.
    public var revoke: @Sendable (_ id: DeviceLinkID) async throws -> Void
}

extension DeviceLinkClient: TestDependencyKey {
    public static let testValue = DeviceLinkClient()

    public static let previewValue = DeviceLinkClient(
        links: { [] },
        create: { name, resolvesAlerts in
            NewDeviceLink(
                link: DeviceLink(id: DeviceLinkID(UUID()), name: name, resolvesAlerts: resolvesAlerts, createdAt: Date()),
                url: "https://lifesignal.example/d/lsd_preview")
        },
        revoke: { _ in }
    )
}

extension DependencyValues {
    public var deviceLinkClient: DeviceLinkClient {
        get { self[DeviceLinkClient.self] }
        set { self[DeviceLinkClient.self] = newValue }
    }
}
