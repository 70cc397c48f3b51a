import Dependencies
import Foundation
import LifeSignalAPI
import LifeSignalClient
import LifeSignalModels

extension DailyCallClient: DependencyKey {
    public static var liveValue: DailyCallClient { .live(api: .fromEnvironment()) }

    public static func live(api: APIClient) -> DailyCallClient {
        DailyCallClient(
            setUp: { first, last, phone, time, zone in
                try await api.send(
                    Operations.createDailyCallSetup,
                    body: DailyCallSetupBody(firstName: first, lastName: last, phone: phone, time: time, timeZone: zone))
            },
            list: { try await api.send(Operations.listDailyCallSetups) },
            cancel: { id in try await api.send(Operations.cancelDailyCallSetup, ByID(id)) },
            setAway: { person, until in
                try await api.send(Operations.setContactAway, ByID(person), body: PauseBody(until: until))
            }
        )
    }
}
