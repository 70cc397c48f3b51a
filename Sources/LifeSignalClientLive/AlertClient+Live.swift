import Dependencies
import Foundation
import LifeSignalClient
import LifeSignalAPI
import LifeSignalModels

extension AlertClient: DependencyKey {
    public static var liveValue: AlertClient { .live(api: .fromEnvironment()) }

    public static func live(api: APIClient) -> AlertClient {
        AlertClient(
            raise: { try await api.send(Operations.raiseAlert) },
            clear: { try await api.send(Operations.clearAlert) },
            incidentReport: { id in try await api.send(Operations.getIncident, parameters: ["id": id.description]) },
            acknowledge: { id in try await api.send(Operations.acknowledgeIncident, parameters: ["id": id.description]) },
            resolve: { id in try await api.send(Operations.resolveIncident, parameters: ["id": id.description]) },
            checkInOnBehalf: { userID, checkInID in
                try await api.send(
                    Operations.checkInOnBehalf, parameters: ["id": userID.description],
                    body: CheckInBody(id: checkInID, source: .responder))
            },
            openSealedDetails: { id in try await api.send(Operations.openSealedDetails, parameters: ["id": id.description]) }
        )
    }
}
