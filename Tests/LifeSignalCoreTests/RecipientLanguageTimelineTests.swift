import Foundation
import LifeSignalCore
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalTestSupport
import Testing

@Suite struct RecipientLanguageTimelineTests {
    /// The timeline is stored in English (its hash chain depends on it) and read in the
    /// reader's language: made from each entry's kind and detail when it is read, the stored
    /// summary where there are no words for it.
    @Test func theTimelineIsReadInTheReadersLanguage() async throws {
        let world = try await TestWorld()
        var ada = try await world.signUp("Ada", phone: "+447700900541")
        let bob = try await world.signUp("Bob", phone: "+447700900542")
        ada.user = try await world.profiles.updateProfile(ada, ProfileChanges(timeZone: "Europe/Berlin", language: "de"))
        try await world.link(responder: bob, dependent: ada)
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .web)
        _ = try await world.pings.ping(bob, dependent: ada.user.id)
        _ = try await world.drills.runDrill(ada)
        _ = try await world.profiles.setPause(ada, until: world.clock.now.addingTimeInterval(2 * 24 * 3600))
        _ = try await world.profiles.setPause(ada, until: nil)

        let entries = try await world.timeline.timeline(ada)
        let sentences = try await world.timeline.sentences(ada, for: entries)
        func said(_ kind: String) -> [String] { entries.filter { $0.kind == kind }.compactMap { sentences[$0.sequence] } }
        #expect(said("account_created") == ["Konto erstellt"])
        #expect(said("check_in") == ["Auf der Website gemeldet"])
        #expect(said("ping_received") == ["Nachfrage von Bob Tester"])
        #expect(said("drill") == ["Übung an 1 Vertrauensperson gesendet"])
        #expect(said("resumed") == ["Pause beendet"])
        let paused = try #require(said("paused").first)
        #expect(paused.hasPrefix("Pausiert bis "), "\(paused)")
        #expect(!paused.contains(" at "), "\(paused)")
        // A kind without words here keeps its stored English record.
        let notification = try #require(entries.first { $0.kind == "notification" })
        #expect(sentences[notification.sequence] == notification.summary)
        // The record itself is unchanged, and its chain still holds.
        #expect(entries.first { $0.kind == "check_in" }?.summary == "Checked in on the web")
        #expect(try await world.timeline.verifyTimeline(ada).valid)

        // An English reader reads the record; the Spanish words come from the same entry.
        let bobs = try await world.timeline.timeline(bob)
        let english = try await world.timeline.sentences(bob, for: bobs)
        #expect(bobs.allSatisfy { english[$0.sequence] == $0.summary })
        let checkIn = try #require(entries.first { $0.kind == "check_in" })
        #expect(Timeline.sentence(for: checkIn, words: Words(Language("es")!), zone: .gmt) == "Confirmó en la web")
        // Someone whose name is gone: the stored words.
        let ping = try #require(entries.first { $0.kind == "ping_received" })
        #expect(Timeline.sentence(for: ping, words: Words(Language("fr")!), zone: .gmt) == ping.summary)
    }
}
