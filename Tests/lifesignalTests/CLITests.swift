import Foundation
import LifeSignalAPI
import LifeSignalModels
import LifeSignalTestSupport
import Testing

@Suite("lifesignal client commands against a live server", .serialized, .timeLimit(.minutes(5)))
struct CLITests {
    @Test func signInInteractivelyCheckInAndStatus() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let ada = try world.person("ada", server: server)
            // Typed at the prompts: the phone, then (once it was sent) the code.
            let (input, typing) = AsyncStream<String>.makeStream()
            let typist = Task {
                typing.yield("+447700900601")
                typing.yield(try await world.waitForCode("+447700900601"))
                typing.finish()
            }
            let signIn = try await ada.run("sign-in", input: input)
            _ = try await typist.value
            #expect(signIn.status == 0, "\(signIn.stderr)")
            #expect(signIn.stdout.contains("Signed in as +447700900601"))
            #expect(signIn.stderr.contains("Code: "))

            // The token is kept in the config directory, readable by its owner only.
            let attributes = try FileManager.default.attributesOfItem(atPath: ada.tokenFile.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

            let checkIn = try await ada.run("check-in")
            #expect(checkIn.status == 0, "\(checkIn.stderr)")
            #expect(checkIn.stdout.contains("Checked in at"))

            let json = try await ada.run("check-in", "--json")
            #expect(json.status == 0)
            let result: CheckInResult = try json.json()
            #expect(result.checkIn.source == .cli)
            #expect(result.duplicate == false)

            // Piped, status prints once and exits.
            let status = try await ada.run("status")
            #expect(status.status == 0)
            #expect(status.stdout.hasPrefix("OK · check in within 1d 0h"))
            #expect(status.stdout.split(separator: "\n").count == 1)
            let statusJSON: CheckInStatus = try await ada.run("status", "--json").json()
            #expect(statusJSON.state == .ok)
            #expect(statusJSON.deadline == world.clock.now.addingTimeInterval(86400))
        }
    }

    @Test func exitCodesForUsageNoSessionAPIErrorsAndNoServer() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let ada = try world.person("ada", server: server)

            let notSignedIn = try await ada.run("check-in")
            #expect(notSignedIn.status == 3)
            #expect(notSignedIn.stderr.contains("lifesignal sign-in"))
            #expect(try await ada.run("status").status == 3)
            #expect(try await ada.run("sign-out").status == 3)

            #expect(try await ada.run("no-such-command").status == 2)
            let noRole = try await ada.run("contacts", "add", "0123456789abcdef0123456789abcdef")
            #expect(noRole.status == 2)
            #expect(noRole.stderr.contains("--responder"))
            #expect(try await ada.run("sign-in", "--code", "123456").status == 2)
            #expect(try await ada.run("notifications", "--category", "nope").status == 2)

            let badCode = try await ada.run("sign-in", "--phone", "+447700900602", "--code", "000000")
            #expect(badCode.status == 1)
            #expect(!badCode.stderr.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: ada.tokenFile.path))

            try await ada.signUp(world, phone: "+447700900602", firstName: "Ada")
            let unknown = try await ada.run("contacts", "add", "0123456789abcdef0123456789abcdef", "--responder")
            #expect(unknown.status == 1)
            #expect(unknown.stderr.contains("No one has that code"))

            let unreachable = try await ada.run("status", "--server", "http://127.0.0.1:1")
            #expect(unreachable.status == 4)
            #expect(unreachable.stderr.contains("Can't reach the LifeSignal server at http://127.0.0.1:1"))
        }
    }

    @Test func anOfflineCheckInIsSavedAndSentByTheNextCommand() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let ada = try world.person("ada", server: server)
            try await ada.signUp(world, phone: "+447700900603", firstName: "Ada")

            let offline = try await ada.run("check-in", "--json", "--server", "http://127.0.0.1:1")
            #expect(offline.status == 4)
            #expect(offline.stdout.contains("\"queued\""))
            let queueFile = ada.configDirectory.appendingPathComponent("pending-check-ins.json")
            let attributes = try FileManager.default.attributesOfItem(atPath: queueFile.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

            let status = try await ada.run("status", "--json")
            #expect(status.status == 0, "\(status.stderr)")
            #expect(status.stderr.contains("Sent 1 check-in"))
            #expect(try status.json(CheckInStatus.self).lastCheckInAt == world.clock.now)

            let token = try String(contentsOf: ada.tokenFile, encoding: .utf8)
            let caller = try await world.accounts.authenticate(token: token).caller()
            #expect(try await world.checkIns.checkIns(caller, before: nil, limit: 10).map(\.source) == [.cli])
        }
    }

    @Test func contactsPingRespondAlertNotificationsTokenAndSignOut() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let ada = try world.person("ada", server: server)
            let bob = try world.person("bob", server: server)
            try await ada.signUp(world, phone: "+447700900604", firstName: "Ada")
            try await bob.signUp(world, phone: "+447700900605", firstName: "Bob")

            let code: ContactCode = try await bob.run("contacts", "code", "--json").json()
            let added = try await ada.run("contacts", "add", code.link, "--responder")
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.contains("Asked Bob Tester: you asked them to watch over you. Nothing is shared until they accept."))
            #expect(try await bob.run("contacts", "--json").json(ContactLists.self).dependents.isEmpty)
            let asked = try await bob.run("contacts", "requests")
            #expect(asked.stdout.contains("Asking you:\n  Ada Tester asks you to watch over them."), "\(asked.stdout)")
            let accepted = try await bob.run("contacts", "accept", "ada")
            #expect(accepted.status == 0, "\(accepted.stderr)")
            #expect(accepted.stdout.contains("You are now linked with Ada Tester (dependent)."), "\(accepted.stdout)")

            let bobsList = try await bob.run("contacts")
            #expect(bobsList.stdout.contains("Dependents (you watch over):\n  Ada Tester  OK"))
            let lists: ContactLists = try await bob.run("contacts", "--json").json()
            #expect(lists.dependents.map(\.firstName) == ["Ada"])

            let ping = try await bob.run("ping", "ada", "--json")
            #expect(ping.status == 0, "\(ping.stderr)")
            let sent: Ping = try ping.json()
            #expect(try await bob.run("ping", "Nobody").status == 2)

            let answered: CheckInResult = try await ada.run("respond", "--ping", sent.id.description, "--json").json()
            #expect(answered.checkIn.source == .pingAnswer)

            let raised = try await ada.run("alert", "raise")
            #expect(raised.status == 0)
            #expect(raised.stdout.hasPrefix("ALERT raised"))
            let alerts: NotificationPage = try await bob.run("notifications", "--category", "alerts", "--json").json()
            #expect(alerts.items.contains { $0.type == .manualAlert })
            let text = try await bob.run("notifications", "--unread")
            #expect(text.stdout.contains("•"))
            #expect(text.stdout.contains("unread."))
            let cleared: CheckInStatus = try await ada.run("alert", "clear", "--json").json()
            #expect(cleared.state == .ok)

            let token = try await ada.run("token", "create", "Home Assistant")
            #expect(token.status == 0)
            let secret = token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(!secret.isEmpty)
            #expect(try await world.accounts.authenticate(token: secret).session.kind == .apiToken)

            let removed = try await ada.run("contacts", "remove", "Bob")
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(try await ada.run("contacts", "--json").json(ContactLists.self).responders.isEmpty)

            let signOut = try await ada.run("sign-out")
            #expect(signOut.status == 0)
            #expect(!FileManager.default.fileExists(atPath: ada.tokenFile.path))
            #expect(try await ada.run("check-in").status == 3)
        }
    }
}
