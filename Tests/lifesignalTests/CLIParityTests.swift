import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels
@_spi(Testing) import LifeSignalStore
import LifeSignalTestSupport
import Testing

/// The commands that make the CLI cover the whole product: incidents, check-in on behalf,
/// pause, rhythm, grace, timeline, preview, drill, channels, sessions and tokens.
@Suite("lifesignal covers the whole product", .serialized, .timeLimit(.minutes(5)))
struct CLIParityTests {
    /// Ada asks Bob to watch over her; Bob accepts.
    func linked(_ world: TestWorld, server: URL, phones: (String, String)) async throws -> (ada: Person, bob: Person) {
        let ada = try world.person("ada", server: server)
        let bob = try world.person("bob", server: server)
        try await ada.signUp(world, phone: phones.0, firstName: "Ada")
        try await bob.signUp(world, phone: phones.1, firstName: "Bob")
        let code: ContactCode = try await bob.run("contacts", "code", "--json").json()
        #expect(try await ada.run("contacts", "add", code.code, "--responder").status == 0)
        let accepted = try await bob.run("contacts", "accept", "Ada")
        #expect(accepted.status == 0, "\(accepted.stderr)")
        return (ada, bob)
    }

    @Test func aResponderSeesAcknowledgesChecksInForAndResolvesAnSOS() async throws {
        var development = ServiceConfiguration()
        development.allowsLogChannels = true
        let world = try await TestWorld(configuration: development)
        try await world.serve { server in
            let (ada, bob) = try await linked(world, server: server, phones: ("+447700900701", "+447700900702"))

            // Not overdue, no alert: the server refuses a check-in on her behalf.
            let tooEarly = try await bob.run("check-in", "--for", "Ada")
            #expect(tooEarly.status == 1)
            #expect(tooEarly.stderr.contains("only once they have missed a check-in or have an open alert"), "\(tooEarly.stderr)")
            #expect(try await bob.run("incident", "show", "Ada").stderr.contains("Ada Tester has no open alert."))

            // Bob is reached on a log channel: the report names the kind, never the address.
            let added = try await bob.run("channels", "add", "log", "bobs-desk", "--json")
            #expect(added.status == 0, "\(added.stderr)")
            let channel: Channel = try added.json()
            #expect(try await bob.run("channels", "--json").json([Channel].self).map(\.id) == [channel.id])

            let raised: Incident = try await ada.run("alert", "raise", "--json").json()

            let shown = try await bob.run("incident", "show", "Ada")
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(shown.stdout.contains("Ada Tester: emergency alert (SOS), since"), "\(shown.stdout)")
            #expect(shown.stdout.contains("Open: nobody has said \"I'm on it\" yet."))
            #expect(shown.stdout.contains("Told:\n  Bob Tester\n    log: queued at"), "\(shown.stdout)")
            #expect(!shown.stdout.contains("bobs-desk"))
            let report: IncidentReport = try await bob.run("incident", "show", raised.id.description, "--json").json()
            #expect(report.incident.id == raised.id)
            #expect(report.recipients.map(\.name) == ["Bob Tester"])
            // His channel, then the verified number (the development default channel is log too):
            // an alert always ends there.
            #expect(report.recipients.first?.deliveries.map(\.channel) == [.log, .log])
            // Her own alert, with no name given.
            #expect(try await ada.run("incident", "--json").json(IncidentReport.self).incident.id == raised.id)

            // An SOS is hers to clear: a responder must say "I'm on it" first.
            let refused = try await bob.run("incident", "resolve", "Ada")
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("before resolving Ada's emergency alert"), "\(refused.stderr)")

            // Her sealed details, opened during the alert (she is told); none is "none".
            let details = try await bob.run("incident", "details", "Ada")
            #expect(details.status == 0, "\(details.stderr)")
            #expect(details.stdout.contains("They have not written any sealed details."), "\(details.stdout)")

            let ack = try await bob.run("incident", "ack", "Ada")
            #expect(ack.status == 0, "\(ack.stderr)")
            #expect(ack.stdout.hasPrefix("You're on it: the other responders are told."))
            #expect(try await ada.run("status", "--json").json(CheckInStatus.self).openIncident?.acknowledgedBy != nil)
            #expect(try await bob.run("incident", "Ada").stdout.contains("Bob Tester is on it since"))

            // With her SOS on, nobody checks in for her: only she clears it, or he resolves it.
            let behalf = try await bob.run("check-in", "--for", "Ada", "--json")
            #expect(behalf.status == 1)
            #expect(behalf.stderr.contains("Ada's emergency alert is on: only they can clear it."), "\(behalf.stderr)")

            let resolved: Incident = try await bob.run("incident", "resolve", raised.id.description, "--json").json()
            #expect(resolved.resolution == .resolvedByResponder)
            #expect(try await ada.run("status", "--json").json(CheckInStatus.self).openIncident == nil)
            let again = try await bob.run("incident", "resolve", raised.id.description)
            #expect(again.status == 1)
            #expect(again.stderr.contains("already resolved"))

            // A drill reaches Bob's log channel; --wait 0 shows what was queued at once.
            let drill = try await ada.run("drill", "--wait", "0", "--json")
            #expect(drill.status == 0, "\(drill.stderr)")
            let drillReport: DrillReport = try drill.json()
            #expect(drillReport.recipients.map(\.name) == ["Bob Tester"])
            #expect(drillReport.recipients.first?.deliveries.map(\.channel) == [.log])
            let shownDrill = try await ada.run("drill", "show", drillReport.id.description)
            #expect(shownDrill.stdout.contains("  Bob Tester\n    log: queued at"), "\(shownDrill.stdout)")

            // A call-in PIN, read from standard input (never an argument), then removed.
            let (pin, typing) = AsyncStream<String>.makeStream()
            typing.yield("2468")
            typing.finish()
            let pinSet = try await ada.run("call-in-pin", "set", input: pin)
            #expect(pinSet.status == 0 && pinSet.stdout.contains("asks for your PIN first"), "\(pinSet.stderr)")
            #expect(try await ada.run("call-in-pin").stdout.contains("asks for your PIN first"))
            let (badPin, typingBad) = AsyncStream<String>.makeStream()
            typingBad.yield("24")
            typingBad.finish()
            let refusedPin = try await ada.run("call-in-pin", "set", input: badPin)
            #expect(refusedPin.status != 0 && refusedPin.stderr.contains("The PIN must be exactly four digits."), "\(refusedPin.stderr)")
            #expect(try await ada.run("call-in-pin", "remove").stdout.contains("No PIN"))

            // A ping, withdrawn; a second withdrawal has nothing to withdraw.
            #expect(try await bob.run("ping", "Ada").status == 0)
            let cleared = try await bob.run("ping", "clear", "Ada")
            #expect(cleared.status == 0, "\(cleared.stderr)")
            #expect(cleared.stdout.contains("Ping of Ada Tester withdrawn."))
            #expect(try await bob.run("contacts", "--json").json(ContactLists.self).dependents.first?.outgoingPing == nil)
            let nothing = try await bob.run("ping", "clear", "Ada")
            #expect(nothing.status == 1)
            #expect(nothing.stderr.contains("no pending ping"))

            let removed = try await bob.run("channels", "remove", channel.id.description)
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(try await bob.run("channels", "--json").json([Channel].self).isEmpty)
        }
    }

    @Test func pauseRhythmGraceAndPreviewRoundTrip() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let ada = try world.person("ada", server: server)
            try await ada.signUp(world, phone: "+447700900703", firstName: "Ada")

            // A bare date is the start of that day in this computer's time zone.
            let paused = try await ada.run("pause", "until", "2026-11-25")
            #expect(paused.status == 0, "\(paused.stderr)")
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .current
            let midnight = try #require(calendar.date(from: DateComponents(year: 2026, month: 11, day: 25)))
            var status: CheckInStatus = try await ada.run("status", "--json").json()
            #expect(status.state == .paused)
            #expect(status.pausedUntil == midnight)
            let exact: CheckInStatus = try await ada.run("pause", "until", "2026-11-24T18:00:00Z", "--json").json()
            #expect(exact.pausedUntil == ISODate.parse("2026-11-24T18:00:00Z"))
            #expect(try await ada.run("pause", "until", "24/11/2026").status == 2)
            #expect(try await ada.run("pause", "off").status == 0)
            status = try await ada.run("status", "--json").json()
            #expect(status.state == .ok)

            // Days off ahead: planned, listed, refused when overlapping, called off by the start of its id.
            let planned = try await ada.run("pause", "add", "2026-12-10", "2026-12-14", "--json")
            #expect(planned.status == 0, "\(planned.stderr)")
            let pause: Pause = try planned.json()
            #expect(try await ada.run("pause", "list", "--json").json([Pause].self).map(\.id) == [pause.id])
            #expect(try await ada.run("pause", "list").stdout.contains(String(pause.id.description.prefix(8))))
            let overlapping = try await ada.run("pause", "add", "2026-12-12", "2026-12-20")
            #expect(overlapping.status == 1 && overlapping.stderr.contains("overlaps"))
            #expect(try await ada.run("pause", "add", "2026-12-01", "2027-01-15").status == 1)
            let removed = try await ada.run("pause", "remove", String(pause.id.description.prefix(8)))
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(try await ada.run("pause", "list", "--json").json([Pause].self).isEmpty)
            #expect(try await ada.run("pause", "until", "2026-11-25", "--open-incident", "maybe").status == 2)
            #expect(try await ada.run("pause", "add", "2026-12-10", "2026-12-14", "--open-incident", "maybe").status == 2)

            // Quiet hours: set, shown, off; a bad range changes nothing.
            let quiet = try await ada.run("quiet-hours", "22:30-06:45")
            #expect(quiet.status == 0, "\(quiet.stderr)")
            #expect(quiet.stdout.contains("22:30–06:45"))
            #expect(try await ada.run("quiet-hours", "25:00-06:00").status == 2)
            #expect(try await ada.run("quiet-hours").stdout.contains("22:30–06:45"))
            #expect(try await ada.run("quiet-hours", "off").stdout.contains("No quiet hours"))

            let every = try await ada.run("rhythm", "every", "8h")
            #expect(every.status == 0, "\(every.stderr)")
            #expect(every.stdout.contains("Check in every 8h."))
            #expect(try await ada.run("status", "--json").json(CheckInStatus.self).periodSeconds == 8 * 3600)
            #expect(try await ada.run("rhythm", "every", "1d12h", "--json").json(User.self).schedule == .interval(seconds: 36 * 3600))
            let tooShort = try await ada.run("rhythm", "every", "30m")
            #expect(tooShort.status == 1)
            #expect(!tooShort.stderr.isEmpty)
            #expect(try await ada.run("rhythm", "every", "soon").status == 2)

            let daily = try await ada.run("rhythm", "daily", "21:30", "--time-zone", "Europe/London")
            #expect(daily.status == 0, "\(daily.stderr)")
            #expect(daily.stdout.contains("Check in by 21:30 every day (Europe/London)."))
            let user: User = try await ada.run("rhythm", "--json").json()
            #expect(user.schedule == .daily(hour: 21, minute: 30, timeZone: "Europe/London"))
            #expect(try await ada.run("status", "--json").json(CheckInStatus.self).periodSeconds == 86400)
            #expect(try await ada.run("rhythm", "daily", "25:00").status == 2)
            #expect(try await ada.run("rhythm", "daily", "09:00", "--time-zone", "Mars/Olympus").status == 2)

            // Two times on their days: `--on TIME=DAYS` names a time's days (ranges and lists).
            let twice = try await ada.run(
                "rhythm", "daily", "09:30", "21:30", "--on", "21:30=mon-fri", "--on", "09:30=mon-sat", "--time-zone", "Europe/Vienna")
            #expect(twice.status == 0, "\(twice.stderr)")
            #expect(twice.stdout.contains("Check in by 09:30 from Monday to Saturday; by 21:30 on weekdays (Europe/Vienna)."))
            let both: User = try await ada.run("rhythm", "--json").json()
            let expected = DailySchedule(
                times: [
                    DailySchedule.Time(hour: 9, minute: 30, weekdays: Set(1...6)),
                    DailySchedule.Time(hour: 21, minute: 30, weekdays: Set(1...5)),
                ], timeZone: "Europe/Vienna")
            #expect(both.schedule == .daily(expected))
            #expect(try await ada.run("status", "--json").json(CheckInStatus.self).periodSeconds == 12 * 3600)
            #expect(try await ada.run("rhythm", "daily", "09:30", "--on", "10:00=mon").status == 2)
            #expect(try await ada.run("rhythm", "daily", "09:30", "--on", "09:30=someday").status == 2)
            let close = try await ada.run("rhythm", "daily", "09:30", "10:00", "--time-zone", "Europe/Vienna")
            #expect(close.status == 1)
            #expect(close.stderr.contains("at least an hour apart"), "\(close.stderr)")
            #expect(try await ada.run("rhythm", "--json").json(User.self).schedule == .daily(expected), "nothing changed")

            #expect(try await ada.run("grace", "25").stdout.contains("Grace period: 25 min"))
            #expect(try await ada.run("grace", "--json").json(User.self).graceMinutes == 25)
            let tooLong = try await ada.run("grace", "90")
            #expect(tooLong.status == 1)
            #expect(tooLong.stderr.contains("between 0 and 60 minutes"))

            #expect(try await ada.run("time-zone", "Asia/Tokyo").stdout.contains("written in Asia/Tokyo time"))
            #expect(try await ada.run("time-zone", "--json").stdout.contains("Asia/Tokyo"))
            #expect(try await ada.run("time-zone", "Mars/Olympus").status == 2)

            // The language of her messages; the CLI says it in this computer's language.
            var german = ada
            german.extraEnvironment["LC_ALL"] = "de_DE.UTF-8"
            let set = try await german.run("language", "de-at")
            #expect(set.status == 0, "\(set.stderr)")
            #expect(set.stdout.contains("Ihre Nachrichten und Seiten sind auf Deutsch."), "\(set.stdout)")
            var english = ada
            english.extraEnvironment["LC_ALL"] = "C"
            #expect(try await english.run("language").stdout.contains("Your messages and pages are in Deutsch."))
            #expect(try await ada.run("language", "--json").stdout.contains("de-AT"))
            #expect(try await ada.run("language", "not a language").status == 2)

            let preview = try await ada.run("preview", "--json")
            #expect(preview.status == 0, "\(preview.stderr)")
            #expect(try !preview.json([PreviewStep].self).isEmpty)
            #expect(try await ada.run("preview").stdout.hasPrefix("If you miss your next check-in:"))
        }
    }

    @Test func herLadderIsSetShownAndHerKeyHolderMarked() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let (ada, _) = try await linked(world, server: server, phones: ("+447700900731", "+447700900732"))
            let key = try await ada.run("ladder", "key", "Bob")
            #expect(key.status == 0, "\(key.stderr)")
            #expect(key.stdout.contains("Bob Tester holds your key"), "\(key.stdout)")
            let refused = try await ada.run("ladder", "set", "Bob", "Bob")
            #expect(refused.status == 2, "a step it cannot read is a usage error")
            #expect(refused.stderr.contains("Start each step after the first with its wait"), "\(refused.stderr)")
            let set = try await ada.run("ladder", "set", "Bob", "20:everyone")
            #expect(set.status == 0, "\(set.stderr)")
            #expect(set.stdout.contains("Ladder saved: 2 steps."), "\(set.stdout)")
            let ladder: Ladder = try await ada.run("ladder", "set", "Bob", "20:everyone", "--sos-climbs", "--json").json()
            #expect(ladder.version == 2 && ladder.sosClimbs)
            // Changing the steps without the flag keeps what she chose; --no-sos-climbs turns it off.
            let kept: Ladder = try await ada.run("ladder", "set", "Bob", "30:everyone", "--json").json()
            #expect(kept.version == 3 && kept.sosClimbs)
            let off: Ladder = try await ada.run("ladder", "set", "Bob", "30:everyone", "--no-sos-climbs", "--json").json()
            #expect(off.version == 4 && !off.sosClimbs)
            let shown = try await ada.run("ladder")
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(shown.stdout.hasPrefix("If you miss "), "\(shown.stdout)")
            #expect(shown.stdout.contains("Step 1, "), "\(shown.stdout)")
            #expect(shown.stdout.contains(": Bob Tester (has a key)"), "\(shown.stdout)")
            #expect(shown.stdout.contains("Step 2, "), "\(shown.stdout)")
        }
    }

    @Test func theTimelineIsExportedPageByPageAndVerified() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let ada = try world.person("ada", server: server)
            try await ada.signUp(world, phone: "+447700900704", firstName: "Ada")
            for _ in 0..<3 { #expect(try await ada.run("check-in").status == 0) }
            #expect(try await ada.run("grace", "5").status == 0)

            let all: [TimelineEntry] = try await ada.run("timeline", "--json").json()
            #expect(all.count >= 5)
            // Pages of two: several requests, each after the last sequence seen.
            let paged: [TimelineEntry] = try await ada.run("timeline", "--page-size", "2", "--json").json()
            #expect(paged == all)
            #expect(paged.map(\.sequence) == Array(1...all.count))

            let file = world.directory.appendingPathComponent("timeline.json")
            let exported = try await ada.run("timeline", "--export", file.path, "--page-size", "2", "--verify")
            #expect(exported.status == 0, "\(exported.stderr)")
            #expect(exported.stdout.contains("Exported \(all.count) entries to \(file.path)."))
            #expect(exported.stdout.contains("Timeline valid: \(all.count) entries, head \(all.last!.hash)."), "\(exported.stdout)")
            let written = try APICoding.decoder.decode([TimelineEntry].self, from: Data(contentsOf: file))
            #expect(written == all)
            // Each entry links to the one before it.
            #expect(zip(written, written.dropFirst()).allSatisfy { $1.previousHash == $0.hash })

            let verified = try await ada.run("timeline", "--verify", "--json")
            let summary = try APICoding.decoder.decode(VerifySummary.self, from: Data(verified.stdout.utf8))
            #expect(summary.verification.valid)
            #expect(summary.verification.entries == all.count)
            #expect(try await ada.run("timeline", "--page-size", "0").status == 2)
        }
    }

    struct VerifySummary: Decodable { var verification: TimelineVerification }

    @Test func herDataIsExportedAsJSONAndHerCheckInsAsCSV() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let (ada, bob) = try await linked(world, server: server, phones: ("+447700900711", "+447700900712"))
            for _ in 0..<2 { #expect(try await ada.run("check-in").status == 0) }
            let bobs: CheckInResult = try await bob.run("check-in", "--json").json()

            // To standard output: the server's document as it came.
            let printed = try await ada.run("export")
            #expect(printed.status == 0, "\(printed.stderr)")
            let export = try APICoding.decoder.decode(DataExport.self, from: Data(printed.stdout.utf8))
            #expect(export.formatVersion == 1 && export.profile.firstName == "Ada")
            #expect(export.checkIns.count == 2 && export.checkIns.allSatisfy { $0.source == .cli })
            #expect(export.contacts.responders.map(\.fullName) == ["Bob Tester"])
            #expect(!export.timeline.isEmpty)
            #expect(!printed.stdout.contains(bobs.checkIn.id.description))

            // To a file, said in words; --json says where and how much.
            let file = world.directory.appendingPathComponent("ada.json")
            let saved = try await ada.run("export", "--output", file.path)
            #expect(saved.status == 0, "\(saved.stderr)")
            #expect(saved.stdout == "Saved your data to \(file.path).\n")
            #expect(try APICoding.decoder.decode(DataExport.self, from: Data(contentsOf: file)).checkIns == export.checkIns)

            let csvFile = world.directory.appendingPathComponent("check-ins.csv")
            let csv = try await ada.run("export", "--csv", "-o", csvFile.path, "--json")
            #expect(csv.status == 0, "\(csv.stderr)")
            let written = try String(contentsOf: csvFile, encoding: .utf8)
            #expect(csv.stdout.contains(#""bytes" : \#(written.utf8.count)"#), "\(csv.stdout)")
            let lines = written.components(separatedBy: "\r\n")
            #expect(lines.first == "id,at,source,recorded_by,client_at,device")
            #expect(lines.dropFirst().prefix(2).map { $0.split(separator: ",", omittingEmptySubsequences: false)[2] } == ["cli", "cli"])
            #expect(try await ada.run("export", "--csv").stdout == written)
        }
    }

    @Test func sessionsAndTokensAreListedAndRevokedAndAScriptUsesItsToken() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let ada = try world.person("ada", server: server)
            try await ada.signUp(world, phone: "+447700900705", firstName: "Ada")
            // Ada signs in on a second computer too.
            let laptop = try world.person("laptop", server: server)
            #expect(try await laptop.run("sign-in", "--phone", "+447700900705", "--send-code").status == 0)
            let code = try #require(world.code(for: "+447700900705"))
            #expect(try await laptop.run("sign-in", "--phone", "+447700900705", "--code", code).status == 0)

            let created = try await ada.run("token", "create", "Shortcut", "--scope", "check_in")
            #expect(created.status == 0, "\(created.stderr)")
            let secret = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

            let sessions: [Session] = try await ada.run("sessions", "--json").json()
            #expect(sessions.filter { $0.kind == .session }.count == 2)
            let tokens: [Session] = try await ada.run("token", "list", "--json").json()
            #expect(tokens.map(\.name) == ["Shortcut"])
            #expect(tokens.map(\.scope) == [.checkIn])
            #expect(try await ada.run("token", "list").stdout.contains("token    Shortcut (check_in)"))

            // A script with only the token: it checks in, and nothing else.
            var script = try world.person("script", server: server)
            script.extraEnvironment = ["LIFESIGNAL_TOKEN": secret]
            let checkIn = try await script.run("check-in", "--json")
            #expect(checkIn.status == 0, "\(checkIn.stderr)")
            // The server records who checked in by the kind of credential: a token.
            #expect(try checkIn.json(CheckInResult.self).checkIn.source == .apiToken)
            #expect(try await script.run("status", "--json").status == 0)
            let contacts = try await script.run("contacts")
            #expect(contacts.status == 1)
            #expect(contacts.stderr.contains("This token can only check in and read your status."), "\(contacts.stderr)")
            #expect(!FileManager.default.fileExists(atPath: script.tokenFile.path))

            let revokedToken = try await ada.run("token", "revoke", "Shortcut")
            #expect(revokedToken.status == 0, "\(revokedToken.stderr)")
            let refused = try await script.run("check-in")
            #expect(refused.status == 3)
            #expect(refused.stderr.contains("LIFESIGNAL_TOKEN"))
            #expect(try await ada.run("token", "list", "--json").json([Session].self).isEmpty)

            // The laptop's session is revoked from Ada's first computer.
            let laptopToken = try String(contentsOf: laptop.tokenFile, encoding: .utf8)
            let laptopSession = try await world.accounts.authenticate(token: laptopToken).session
            let revoked = try await ada.run("sessions", "revoke", laptopSession.id.description)
            #expect(revoked.status == 0, "\(revoked.stderr)")
            #expect(try await laptop.run("status").status == 3)
            #expect(try await ada.run("sessions", "--json").json([Session].self).count == 1)
            #expect(try await ada.run("sessions", "revoke", "nothing-like-it").status == 2)
        }
    }

    /// `devices`: a check-in link made, used with the curl line it prints, listed and revoked.
    @Test func aDeviceLinkIsMadeUsedListedAndRevoked() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let ada = try world.person("ada", server: server)
            try await ada.signUp(world, phone: "+447700900706", firstName: "Ada")
            #expect(try await ada.run("devices").stdout.contains("No check-in links."))

            let made = try await ada.run("devices", "add", "Front door button", "--json")
            #expect(made.status == 0, "\(made.stderr)")
            let link = try made.json(NewDeviceLink.self)
            // On the service's public address (this test server's is the default's).
            #expect(link.url.hasPrefix("http://localhost:8080/d/lsd_"))
            let human = try await ada.run("devices", "add", "Watch shortcut", "--ends-alerts")
            #expect(human.stdout.contains("Copy the address now: it is shown only once."), "\(human.stdout)")
            #expect(human.stdout.contains("curl -fsS -X POST http://localhost:8080/d/lsd_"))

            // The address works without any sign-in, as a button would call it.
            let path = try #require(URL(string: link.url)?.path)
            var request = URLRequest(url: server.appendingPathComponent(path))
            request.httpMethod = "POST"
            let (body, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: body, as: UTF8.self) == "OK\n")

            let listed = try await ada.run("devices", "list")
            #expect(listed.stdout.contains("Front door button · last used") && listed.stdout.contains("activity during an alert"))
            #expect(listed.stdout.contains("Watch shortcut") && listed.stdout.contains("ends an alert"))
            #expect(!listed.stdout.contains("lsd_"))
            let revoked = try await ada.run("devices", "revoke", "front door button")
            #expect(revoked.stdout.contains("Front door button can no longer check you in."), "\(revoked.stderr)")
            #expect(try await ada.run("devices", "--json").json([DeviceLink].self).map(\.name) == ["Watch shortcut"])
            #expect(try await ada.run("devices", "revoke", "nothing-like-it").status == 2)
        }
    }

    /// `plan`: started with sealed details from a file, listed, given more time, and ended by
    /// "back", which checks her in; the service's clock decides what is due.
    @Test func aPlanIsStartedExtendedAndEndedFromTheCommandLine() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let (ada, _) = try await linked(world, server: server, phones: ("+447700900741", "+447700900742"))
            #expect(try await ada.run("plan").stdout.contains("No plans."))
            let file = world.directory.appendingPathComponent("plan.txt")
            try "Route: Gaisloch\nCar: W-4711X".write(to: file, atomically: true, encoding: .utf8)
            let due = ISODate.format(world.clock.now.addingTimeInterval(7200))
            let started = try await ada.run(
                "plan", "start", "Hiking the Rax trail", "--by", due, "--details", "@" + file.path, "--instruction",
                "Call mountain rescue 140")
            #expect(started.status == 0, "\(started.stderr)")
            #expect(started.stdout.contains("Started \"Hiking the Rax trail\": back by"), "\(started.stdout)")
            let listed = try await ada.run("plan", "--json")
            #expect(listed.status == 0 && listed.stdout.hasPrefix("["), "\(listed.stdout) \(listed.stderr)")
            let plans = try listed.json([Plan].self)
            #expect(plans.map(\.details) == ["Route: Gaisloch\nCar: W-4711X"])
            #expect(plans.first?.instruction == "Call mountain rescue 140")

            let extended = try await ada.run("plan", "extend", "90m")
            #expect(extended.status == 0, "\(extended.stderr)")
            let later = try await ada.run("plan", "--json")
            #expect(later.stdout.hasPrefix("["), "\(later.stdout) \(later.stderr)")
            #expect(try later.json([Plan].self).first?.dueAt == plans[0].dueAt.addingTimeInterval(5400))
            #expect(try await ada.run("plan", "extend", "soon").status != 0)
            #expect(try await ada.run("plan", "start", "Swim", "--by", "half past").status != 0)

            let back = try await ada.run("plan", "back")
            #expect(back.stdout.contains("Welcome back"), "\(back.stderr)")
            let ended = try await ada.run("plan", "--json")
            #expect(ended.stdout.hasPrefix("["), "\(ended.stdout) \(ended.stderr)")
            #expect(try ended.json([Plan].self).first?.state == .done)
            let source = try await world.store.read { tx in
                try await tx.executor.queryFirst("SELECT source FROM check_ins ORDER BY at DESC LIMIT 1")?.string("source")
            }
            #expect(source == "cli")
            #expect(try await ada.run("plan", "back").status != 0)

            // No plan: `later` moves her next deadline, once.
            let addTime = try await ada.run("later", "2h", "--json")
            #expect(addTime.status == 0, "\(addTime.stderr)")
            let moved = try addTime.json(CheckInStatus.self)
            #expect(moved.deadline == world.clock.now.addingTimeInterval(24 * 3600 + 7200))
            #expect(try await ada.run("later", "1h").status == 1)
        }
    }

    /// `check-in --call-me`: "I'm OK, but please call me today", once a day for her responders.
    @Test func checkInCallMeAsksTheRespondersOnceADay() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let (ada, bob) = try await linked(world, server: server, phones: ("+447700900731", "+447700900732"))
            let asked = try await ada.run("check-in", "--call-me")
            #expect(asked.status == 0, "\(asked.stderr)")
            #expect(asked.stdout.contains("We've asked Bob Tester to call you today."), "\(asked.stdout)")
            let again: CheckInResult = try await ada.run("check-in", "--call-me", "--json").json()
            #expect(again.callRequest == CallRequest(outcome: .alreadyAsked))
            let notifications: NotificationPage = try await bob.run("notifications", "--json").json()
            let told = notifications.items.filter { $0.type == .callRequest }
            #expect(told.map(\.title) == ["Ada Tester would like a call today"])
            #expect(told.first?.body.hasPrefix("Ada Tester checked in from the command line ") == true)
            // Never on someone's behalf.
            let behalf = try await bob.run("check-in", "--for", "Ada", "--call-me")
            #expect(behalf.status != 0)
            #expect(behalf.stderr.contains("--call-me cannot be used with --for."), "\(behalf.stderr)")
        }
    }

    @Test func aDailyCallForHerselfAndOneSetUpForHerMother() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let (ada, _) = try await linked(world, server: server, phones: ("+447700900741", "+447700900742"))
            let rhythm = try await ada.run("rhythm", "call", "08:15", "--time-zone", "Europe/London", "--attempts", "2")
            #expect(rhythm.status == 0, "\(rhythm.stderr)")
            #expect(
                rhythm.stdout.contains("Called every day at 08:15 (Europe/London) on your phone, 2 tries 15 minutes apart"),
                "\(rhythm.stdout)")
            // Days as `rhythm daily --on` takes them, ranges too.
            let weekdays: User = try await ada.run(
                "rhythm", "call", "08:15", "--time-zone", "Europe/London", "--days", "mon-fri", "--json"
            ).json()
            #expect(weekdays.schedule.dailyCall?.weekdays == Set(1...5))
            let stranger = try await ada.run("rhythm", "call", "08:15", "--number", "+447700900799")
            #expect(stranger.status != 0)
            #expect(stranger.stderr.contains("your own phone, or a number you proved under Channels"), "\(stranger.stderr)")

            let made = try await ada.run(
                "daily-calls", "setup", "--first-name", "Mia", "--phone", "+447700900799", "--time", "09:30", "--time-zone",
                "Europe/London")
            #expect(made.status == 0, "\(made.stderr)")
            #expect(made.stdout.contains("Mia (+447700900799), every day at 09:30 Europe/London: waiting for their yes"), "\(made.stdout)")
            let listed: [DailyCallSetup] = try await ada.run("daily-calls", "--json").json()
            let setup = try #require(listed.first)
            let cancelled = try await ada.run("daily-calls", "cancel", setup.id.description)
            #expect(cancelled.stdout.contains("taken back"), "\(cancelled.stdout)")
            #expect(try await ada.run("daily-calls", "cancel", "nope").status != 0)
        }
    }

    @Test func helpMentionsCompletionsAndTheEnvironment() async throws {
        let ada = Person(home: FileManager.default.temporaryDirectory, server: URL(string: "http://127.0.0.1:1")!)
        let help = try await ada.run("--help")
        #expect(help.stdout.contains("--generate-completion-script"))
        #expect(help.stdout.contains("LIFESIGNAL_TOKEN"))
        let completion = try await ada.run("--generate-completion-script", "bash")
        #expect(completion.status == 0)
        #expect(completion.stdout.contains("incident"))
    }
}
