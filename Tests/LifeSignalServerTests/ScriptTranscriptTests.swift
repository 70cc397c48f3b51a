import Foundation
@_spi(Testing) import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// Every text and call the person and her responder receive during one missed check-in and
/// one SOS, in the words the Twilio adapters send (`smsText`, the call's TwiML read aloud).
/// It prints the transcript (`script|moment|recipient|channel|words`) and checks the rule the
/// person's safety rests on: nothing sent to her asks for a responder's answer.
@Suite struct ScriptTranscriptTests {
    struct Line: CustomStringConvertible {
        let moment: String
        let recipient: String
        let channel: String
        let words: String
        var description: String {
            "script|\(moment)|\(recipient)|\(channel)|\(words.replacingOccurrences(of: "\n", with: " ⏎ "))"
        }
    }

    /// The words of each notification `caller` received after `seen`, as a text and as a call.
    static func newLines(
        _ world: TestWorld, _ caller: Caller, name: String, moment: String, seen: inout Set<NotificationID>
    ) async throws -> [Line] {
        var lines: [Line] = []
        for n in try await world.notifications(caller).reversed() where seen.insert(n.id).inserted {
            let message = OutgoingMessage(
                deliveryID: DeliveryID(UUID()), notificationID: n.id, recipientID: n.recipientID, channel: .sms,
                address: caller.user.phone, kind: n.type, title: n.title, body: n.body, urgent: n.category == .alerts,
                link: "https://lifesignal.example/…")
            lines.append(Line(moment: moment, recipient: name, channel: "text", words: TwilioChannel.smsText(message)))
            lines.append(
                Line(
                    moment: moment, recipient: name, channel: "call",
                    words: Self.spoken(TwilioChannel.twiml(message, voice: nil, keypressURL: "https://lifesignal.example/k"))))
        }
        return lines
    }

    /// What a caller hears: the `<Say>` texts of the TwiML, in order (a repeat said once).
    static func spoken(_ twiml: String) -> String {
        var said: [String] = []
        var rest = Substring(twiml)
        while let open = rest.range(of: "<Say>"), let close = rest.range(of: "</Say>", range: open.upperBound..<rest.endIndex) {
            let text = String(rest[open.upperBound..<close.lowerBound]).replacingOccurrences(of: "&apos;", with: "'")
            if said.last != text { said.append(text) }
            rest = rest[close.upperBound...]
        }
        return said.joined(separator: " ")
    }

    static let responderPrompts = ["ON IT", "on it.\nReply", "Press 1 to say you're on it"]

    @Test func aMissedCheckInAndAnSOSInEveryWordSent() async throws {
        let world = try await TestWorld(configuration: ServiceConfiguration(defaultChannel: .sms))
        let engine = EscalationEngine(core: world.core, instance: "transcript")
        let ada = try await world.signUp("Ada", phone: "+447700900301")
        // Bob only watches over Ada: what he receives is about her.
        let bob = try await world.signUp("Bob", phone: "+447700900302")
        _ = try await world.profiles.updateProfile(bob, ProfileChanges(watchOnly: true))
        try await world.link(responder: bob, dependent: ada)
        var seenAda = Set<NotificationID>(), seenBob = Set<NotificationID>()
        for n in try await world.notifications(ada) { seenAda.insert(n.id) }
        for n in try await world.notifications(bob) { seenBob.insert(n.id) }
        var transcript: [Line] = []
        func moment(_ words: String) async throws {
            transcript += try await Self.newLines(world, ada, name: "Ada (the person)", moment: words, seen: &seenAda)
            transcript += try await Self.newLines(world, bob, name: "Bob (responder)", moment: words, seen: &seenBob)
        }

        // One missed check-in: deadline 24 h after her check-in, reminder 30 min before, grace 10 min.
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .web)
        world.clock.advance(by: 24 * 3600 - 30 * 60)
        _ = try await engine.runPass()
        try await moment("30 min before her deadline")
        world.clock.advance(by: 30 * 60)
        _ = try await engine.runPass()
        try await moment("her deadline passes")
        world.clock.advance(by: 10 * 60)
        _ = try await engine.runPass()
        try await moment("grace over: the alert")
        world.clock.advance(by: 15 * 60)
        _ = try await engine.runPass()
        try await moment("15 min later, nobody on it")
        let open = try #require(try await world.checkIns.status(ada).openIncident)
        _ = try await world.incidents.acknowledge(bob, incident: open.id)
        try await moment("Bob says he's on it")
        let okReply = try #require(try await world.replies.receiveText(from: "+447700900301", body: "OK", messageID: "SMok"))
        transcript.append(Line(moment: "Ada replies OK", recipient: "Ada (the person)", channel: "text reply", words: okReply))
        try await moment("Ada replies OK")

        // One SOS.
        world.clock.advance(by: 3600)
        for (index, text) in ["SOS", "SOS"].enumerated() {
            let reply = try #require(try await world.replies.receiveText(from: "+447700900301", body: text, messageID: "SMsos\(index)"))
            transcript.append(Line(moment: "Ada texts SOS", recipient: "Ada (the person)", channel: "text reply", words: reply))
        }
        try await moment("Ada texts SOS")
        let sos = try #require(try await world.checkIns.status(ada).openIncident)
        _ = try await world.incidents.acknowledge(bob, incident: sos.id)
        try await moment("Bob says he's on it")
        for (index, text) in ["SAFE", "SAFE"].enumerated() {
            let reply = try #require(try await world.replies.receiveText(from: "+447700900301", body: text, messageID: "SMsafe\(index)"))
            transcript.append(Line(moment: "Ada texts SAFE", recipient: "Ada (the person)", channel: "text reply", words: reply))
        }
        try await moment("Ada texts SAFE")

        for line in transcript { print(line) }
        let hers = transcript.filter { $0.recipient.hasPrefix("Ada") }
        #expect(hers.count >= 12)
        for line in hers {
            for prompt in Self.responderPrompts { #expect(!line.words.contains(prompt), "\(line)") }
        }
        // Every reminder and last call says how to answer, by text and by key.
        for line in hers
        where line.channel != "text reply" && (line.words.hasPrefix("Time to check in") || line.words.hasPrefix("You missed your check-in"))
        {
            #expect(line.words.contains(line.channel == "text" ? "Reply OK" : "Press 1"), "\(line)")
        }
        #expect(transcript.contains { $0.recipient.hasPrefix("Bob") && $0.words.hasPrefix("Ada Tester is safe") })
    }
}
