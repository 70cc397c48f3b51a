import Foundation
import LifeSignalAPI
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels
import LifeSignalTestSupport
import Testing

@Suite("The live stream")
struct EventStreamTests {
    @Test func theStreamStartsWithTheStatusAndCarriesNotificationsAndStatusChanges() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let (ada, adaUser) = try await Device.signUp(world, server: server, first: "Ada", phone: "+447700900501")
            let (bob, bobUser) = try await Device.signUp(world, server: server, first: "Bob", phone: "+447700900502")
            let asked = try await ada.contacts.add(codeOrLink: try await bob.contacts.contactCode().code, roles: .responder)
            _ = try await bob.contacts.acceptRequest(asked.id, asked.roles)

            var events = bob.notifications.events().makeAsyncIterator()
            guard case let .status(initial) = try await events.next() else {
                Issue.record("the stream should start with the listener's status")
                return
            }
            #expect(initial.userID == bobUser.id)

            _ = try await ada.alerts.raise()
            // Both arrive, in whichever order the server publishes them.
            var sawAlertStatus = false
            var sawAlertNotification = false
            while !(sawAlertStatus && sawAlertNotification), let event = try await events.next() {
                switch event {
                case let .status(status) where status.userID == adaUser.id && status.state == .alert:
                    sawAlertStatus = true
                case let .notification(notification) where notification.type == .manualAlert:
                    #expect(notification.subjectUserID == adaUser.id)
                    sawAlertNotification = true
                default:
                    continue
                }
            }
            #expect(sawAlertStatus)
            #expect(sawAlertNotification)
        }
    }

    @Test func aStreamThatCannotBeOpenedThrows() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let stranger = Device(server: server, tokens: .inMemory("nope"))
            var events = stranger.notifications.events().makeAsyncIterator()
            let error = try await #require(throws: APIError.self) { _ = try await events.next() }
            #expect(error.status == 401)
        }
    }
}

@Suite("Server-Sent Events parsing")
struct ServerSentEventParserTests {
    @Test func eventsSplitAcrossChunksAndLineEndings() {
        var parser = ServerSentEventParser()
        let text =
            "retry: 3000\n\n: keep-alive\n\nevent: status\ndata: {\"a\":1}\n\nevent: contacts\r\ndata: {}\r\n\r\ndata: one\ndata: two\n\n"
        var events: [ServerSentEvent] = []
        // One byte at a time: every split point is exercised.
        for byte in Array(text.utf8) { events += parser.feed([byte]) }
        #expect(
            events == [
                ServerSentEvent(name: "status", data: "{\"a\":1}"),
                ServerSentEvent(name: "contacts", data: "{}"),
                ServerSentEvent(name: "message", data: "one\ntwo"),
            ])
    }

    @Test func anUnfinishedEventWaitsForItsBlankLine() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("event: contacts\ndata: {}\n".utf8)).isEmpty)
        #expect(parser.feed(Array("\n".utf8)) == [ServerSentEvent(name: "contacts", data: "{}")])
    }

    @Test func framesDecodeToStreamEvents() throws {
        #expect(try StreamEvent(ServerSentEvent(name: "contacts", data: "{}")) == .contactsChanged)
        #expect(try StreamEvent(ServerSentEvent(name: "something-new", data: "{}")) == nil)
        let status = try String(decoding: APICoding.encoder.encode(CheckInStatus.preview), as: UTF8.self)
        #expect(try StreamEvent(ServerSentEvent(name: "status", data: status)) == .status(.preview))
        #expect(throws: APIError.self) { try StreamEvent(ServerSentEvent(name: "status", data: "{")) }
    }
}
