import Foundation
import LifeSignalCore
import LifeSignalModels
import Testing

struct EventHubLimitTests {
    @Test func onePersonHoldsAtMostTheConfiguredNumberOfStreams() throws {
        let hub = EventHub()
        var configuration = ServiceConfiguration()
        configuration.streamsPerUser = 3
        let ada = UserID(UUID())
        var open = try (0..<3).map { _ in try hub.subscribe(ada, configuration: configuration) }
        let refused = #expect(throws: ServiceError.self) { try hub.subscribe(ada, configuration: configuration) }
        #expect(refused?.code == .tooManyStreams)
        #expect(refused?.retryAfter == 30)
        // Someone else is not affected.
        _ = try hub.subscribe(UserID(UUID()), configuration: configuration)
        // A closed stream frees its place.
        open.removeLast()
        #expect(hub.subscriberCount(ada) == 2)
        open.append(try hub.subscribe(ada, configuration: configuration))
        #expect(hub.subscriberCount(ada) == 3)
    }
}
