import Dependencies
import Foundation
import LifeSignalClient
import LifeSignalAPI
import LifeSignalModels

extension PingClient: DependencyKey {
    public static var liveValue: PingClient { .live(api: .fromEnvironment()) }

    public static func live(api: APIClient) -> PingClient {
        PingClient(
            send: { dependentID in try await api.send(Operations.sendPing, ByID(dependentID)) },
            clear: { id in try await api.send(Operations.clearPing, ByID(id)) },
            answer: { id, checkInID in
                try await api.send(
                    Operations.answerPing, ByID(id), body: CheckInBody(id: checkInID))
            },
            answerAll: { checkInID in try await api.send(Operations.answerAllPings, body: CheckInBody(id: checkInID)) },
            needHelp: { id in try await api.send(Operations.answerPingWithHelp, ByID(id)) }
        )
    }
}
