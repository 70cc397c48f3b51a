import Dependencies
import Foundation
import LifeSignalAPI
import LifeSignalClient
import LifeSignalModels

extension DeviceLinkClient: DependencyKey {
    public static var liveValue: DeviceLinkClient { .live(api: .fromEnvironment()) }

    public static func live(api: APIClient) -> DeviceLinkClient {
        DeviceLinkClient(
            links: { try await api.send(Operations.listDeviceLinks) },
            create: { name, resolvesAlerts in
                try await api.send(Operations.createDeviceLink, body: DeviceLinkBody(name: name, resolvesAlerts: resolvesAlerts))
            },
            revoke: { id in try await api.send(Operations.revokeDeviceLink, ByID(id)) }
        )
    }
}
