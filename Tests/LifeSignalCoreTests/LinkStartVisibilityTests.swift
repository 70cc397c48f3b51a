import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// A responder sees a person's alerts from the day they were linked: one still open then (they
/// are being told of it now), never one that had ended before, its note and deliveries included.
struct LinkStartVisibilityTests {
    @Test func anAlertThatEndedBeforeTheLinkStaysHers() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900130")
        let bob = try await world.signUp("Bob", phone: "+447700900131")
        let cy = try await world.signUp("Cy", phone: "+447700900132")
        try await world.link(responder: bob, dependent: ada)
        let past = try await world.incidents.raiseAlert(ada)
        world.clock.advance(by: 60)
        _ = try await world.incidents.clearAlert(ada)
        #expect(try await world.incidents.incidentReport(bob, id: past.id).incident.id == past.id)

        world.clock.advance(by: 3600)
        let open = try await world.incidents.raiseAlert(ada)
        world.clock.advance(by: 60)
        try await world.link(responder: cy, dependent: ada)
        let hidden = await #expect(throws: ServiceError.self) { try await world.incidents.incidentReport(cy, id: past.id) }
        #expect(hidden?.code == .incidentNotFound)
        #expect(try await world.incidents.incidentReport(cy, id: open.id).incident.id == open.id)
        // Bob, linked before, still sees both.
        #expect(try await world.incidents.incidentReport(bob, id: past.id).incident.id == past.id)
    }
}
