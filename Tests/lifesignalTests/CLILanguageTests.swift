import Foundation
import LifeSignalAPI
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// The CLI's human output is in this computer's language (`LC_ALL`, then `LC_MESSAGES`, then
/// `LANG`; English without one); `--json` is the same in every language.
@Suite("lifesignal speaks the terminal's language", .serialized, .timeLimit(.minutes(5)))
struct CLILanguageTests {
    @Test func aGermanRun() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            var ada = try world.person("ada", server: server)
            try await ada.signUp(world, phone: "+447700900681", firstName: "Ada")
            ada.extraEnvironment["LC_ALL"] = ""
            ada.extraEnvironment["LC_MESSAGES"] = ""
            ada.extraEnvironment["LANG"] = "de_DE.UTF-8"

            let checkIn = try await ada.run("check-in")
            #expect(checkIn.status == 0, "\(checkIn.stderr)")
            #expect(checkIn.stdout.hasPrefix("Gemeldet "), "\(checkIn.stdout)")
            #expect(checkIn.stdout.contains(". OK · melden Sie sich innerhalb von 1d 0h (bis "), "\(checkIn.stdout)")

            let status = try await ada.run("status")
            #expect(status.stdout.hasPrefix("OK · melden Sie sich innerhalb von "), "\(status.stdout)")
            let timeline = try await ada.run("timeline")
            #expect(timeline.stdout.contains("Konto erstellt"), "\(timeline.stdout)")
            #expect(timeline.stdout.contains("Über die Kommandozeile gemeldet"), "\(timeline.stdout)")
            #expect(try await ada.run("timeline", "--verify").stdout.hasPrefix("Verlauf gültig: "))
            // The preview's frame is the terminal's; its steps are said by the server, in the
            // account's language (English here: she never chose one).
            let preview = try await ada.run("preview")
            #expect(preview.stdout.hasPrefix("Wenn Sie sich das nächste Mal nicht melden:\n"), "\(preview.stdout)")
            #expect(preview.stdout.contains("Reminder to you: check in within 30 minutes"))
            let notifications = try await ada.run("notifications")
            #expect(notifications.stdout.contains("Keine Mitteilungen.") || notifications.stdout.contains("ungelesen."))

            // Contacts, rhythm and account commands speak it too.
            let contacts = try await ada.run("contacts")
            #expect(
                contacts.stdout.hasPrefix("Vertrauenspersonen (passen auf Sie auf):\n  noch keine: Teilen Sie Ihren Code"),
                "\(contacts.stdout)")
            #expect(contacts.stdout.contains("Betreute Personen (Sie passen auf sie auf):\n  keine"))
            let rhythm = try await ada.run("rhythm")
            #expect(rhythm.stdout == "Melden Sie sich alle 1d; Karenzzeit 10 Min.\n", "\(rhythm.stdout)")
            let grace = try await ada.run("grace", "15")
            #expect(grace.stdout.hasPrefix("Karenzzeit: 15 Min. nach einer verpassten Frist"), "\(grace.stdout)")
            let sessions = try await ada.run("sessions")
            #expect(sessions.stdout.contains("Sitzung") && sessions.stdout.contains(" · zuletzt genutzt "), "\(sessions.stdout)")
            #expect(try await ada.run("channels").stdout.hasPrefix("Nur die App."))
            let unreadable = try await ada.run("rhythm", "every", "soon")
            #expect(
                unreadable.stderr.contains("Der Abstand muss wie 8h, 24h, 2d oder 1d12h aussehen, erhalten: soon"),
                "\(unreadable.stderr)")
            let missing = try await ada.run("contacts", "remove", "Zed")
            #expect(missing.stderr.contains("Kein Kontakt passt zu „Zed“."), "\(missing.stderr)")

            // The server's refusals come back in the terminal's language too.
            let code = try await ada.run("contacts", "code").stdout.split(separator: "\n").first.map(String.init) ?? ""
            let own = try await ada.run("contacts", "add", code, "--responder")
            #expect(own.status != 0)
            #expect(own.stderr.contains("Das ist Ihr eigener Code."), "\(own.stderr)")

            // The machine's output does not change with the language.
            let json = try await ada.run("status", "--json")
            #expect(try json.json(CheckInStatus.self).state == .ok)
            #expect(!json.stdout.contains("melden"))
            let entries = try await ada.run("timeline", "--json").json([TimelineEntry].self)
            #expect(entries.contains { $0.summary == "Checked in from the command line" })

            // LC_ALL wins over LANG; C is English.
            ada.extraEnvironment["LC_ALL"] = "fr_FR.UTF-8"
            #expect(try await ada.run("status").stdout.hasPrefix("OK · donnez de vos nouvelles d'ici "))
            ada.extraEnvironment["LC_ALL"] = "C"
            #expect(try await ada.run("status").stdout.hasPrefix("OK · check in within "))
        }
    }
}
