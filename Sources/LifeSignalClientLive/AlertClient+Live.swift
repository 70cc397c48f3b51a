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
            incidentReport: { id in try await api.send(Operations.getIncident, ByID(id)) },
            acknowledge: { id in try await api.send(Operations.acknowledgeIncident, ByID(id)) },
            resolve: { id in try await api.send(Operations.resolveIncident, ByID(id)) },
            checkInOnBehalf: { userID, checkInID in
                try await api.send(
                    Operations.checkInOnBehalf, ByID(userID),
                    body: CheckInBody(id: checkInID, source: .responder))
            },
            openSealedDetails: { id in try await api.send(Operations.openSealedDetails, ByID(id)) }
        )
    }
}
