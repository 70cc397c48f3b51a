import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// `lifesignal incident show` prints her location to her responder while her alert is open,
/// and nothing once it is over.
@Suite("lifesignal incident show: her location", .serialized, .timeLimit(.minutes(5)))
struct CLILocationTests {
    @Test func aResponderReadsHerLocationDuringHerSOSOnly() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let (ada, bob) = try await CLIParityTests().linked(world, server: server, phones: ("+447700900761", "+447700900762"))
            let token = try String(contentsOf: ada.tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let her = try await world.accounts.authenticate(token: token).caller()
            _ = try await world.profiles.updateProfile(her, ProfileChanges(shareLocation: true))
            let raised: Incident = try await ada.run("alert", "raise", "--json").json()
            _ = try await world.locations.record(
                her, LocationCapture(latitude: 48.2081743, longitude: 16.3738189, accuracyMeters: 35, source: .sos))

            let shown = try await bob.run("incident", "show", "Ada")
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(shown.stdout.contains("Last location: "), "\(shown.stdout)")
            #expect(shown.stdout.contains("within 35 m, from Ada's SOS"), "\(shown.stdout)")
            #expect(
                shown.stdout.contains("Map: https://www.openstreetmap.org/?mlat=48.2081743&mlon=16.3738189#map=17/48.2081743/16.3738189"))
            #expect(shown.stdout.contains("geo:48.2081743,16.3738189"))
            // Her own view of her alert prints no location.
            #expect(!(try await ada.run("incident", "show")).stdout.contains("Last location"))
            #expect(try await world.timeline.timeline(her).filter { $0.kind == "location_seen" }.count == 1)

            #expect(try await ada.run("alert", "clear").status == 0)
            let after = try await bob.run("incident", "show", raised.id.description)
            #expect(after.status == 0, "\(after.stderr)")
            #expect(!after.stdout.contains("Last location"))
            #expect(!after.stdout.contains("48.208"))
        }
    }
}
