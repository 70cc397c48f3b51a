import Dependencies
import Foundation
import LifeSignalAPI
import LifeSignalClient
import LifeSignalModels

extension PauseClient: DependencyKey {
    public static var liveValue: PauseClient { .live(api: .fromEnvironment()) }

    public static func live(api: APIClient) -> PauseClient {
        PauseClient(
            pauses: { try await api.send(Operations.listPauses) },
            add: { from, until, openIncident in
                try await api.send(Operations.addPause, body: NewPauseBody(from: from, until: until, openIncident: openIncident))
            },
            remove: { id in try await api.send(Operations.removePause, ByID(id)) }
        )
    }
}
