import Dependencies
import Foundation
import LifeSignalAPI
import LifeSignalClient
import LifeSignalModels

extension LadderClient: DependencyKey {
    public static var liveValue: LadderClient { .live(api: .fromEnvironment()) }

    public static func live(api: APIClient) -> LadderClient {
        LadderClient(
            ladder: { try await api.send(Operations.getLadder) },
            save: { change in try await api.send(Operations.setLadder, body: change) },
            preview: { try await api.send(Operations.previewLadder) },
            setKeyHolder: { contact, keyHolder in
                try await api.send(
                    Operations.updateContactRoles, ByID(contact), body: ContactChangeBody(keyHolder: keyHolder))
            }
        )
    }
}
