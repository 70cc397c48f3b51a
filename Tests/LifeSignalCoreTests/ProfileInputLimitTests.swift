import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// What a person types is bounded in bytes as well as characters before anyone else sees it.
@Suite("Profile input limits")
struct ProfileInputLimitTests {
    @Test func aNameOfStackedMarksOrALogLineIsRefusedAndNothingChanges() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900303")
        let tooHeavy = "A" + String(repeating: "\u{0301}", count: 30_000) + "da"  // 3 characters, 60 KB
        for (changes, field) in [
            (ProfileChanges(firstName: tooHeavy), "firstName"),
            (ProfileChanges(lastName: "Lovelace\n2026-11-23T20:00:00Z INFO admin signed in"), "lastName"),
            (ProfileChanges(emergencyNote: String(repeating: "👩‍👩‍👧‍👦", count: 100)), "emergencyNote"),
        ] {
            let error = await #expect(throws: ServiceError.self) { try await world.profiles.updateProfile(ada, changes) }
            #expect(error?.field == field)
        }
        let profile = try await world.profiles.profile(ada)
        #expect(profile.firstName == "Ada")
        #expect(profile.lastName == "Tester")
        #expect(profile.emergencyNote.isEmpty)
    }
}
