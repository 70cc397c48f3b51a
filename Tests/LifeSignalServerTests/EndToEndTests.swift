import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels
import LifeSignalServer
import LifeSignalTestSupport
import NIOCore
import Testing

@Suite("End to end over a real socket", .timeLimit(.minutes(5)))
struct EndToEndTests {
    @Test func twoPeopleLinkCheckInPingAnswerAndRaiseAndClearAnAlert() async throws {
        let world = try await TestWorld()
        // On a socket: Bob's live stream is a real HTTP connection.
        try await world.test(.live) { client in
            let (ada, adaUser) = try await client.signUp(world, first: "Ada", phone: "+447700901001")
            let (bob, _) = try await client.signUp(world, first: "Bob", phone: "+447700901002")

            // Bob listens to his live stream over a real HTTP connection.
            let port = try #require(client.port)
            let http = HTTPClient.shared
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/events")
            request.headers.add(name: "Authorization", value: "Bearer \(bob)")
            let stream = try await http.execute(request, timeout: .seconds(30))
            #expect(stream.headers.first(name: "content-type") == "text/event-stream")
            var events = stream.body.makeAsyncIterator()

            try await client.link(responder: bob, dependent: ada)
            #expect(try await client.call(Operations.checkIn, token: ada, json: CheckInBody(id: CheckInID(UUID()))).status == .created)
            let ping = try await client.call(Operations.sendPing, ["id": adaUser.id.description], token: bob).decode(Ping.self)
            let answer = try await client.call(Operations.answerAllPings, token: ada, json: CheckInBody(id: CheckInID(UUID())))
            #expect(try answer.decode(CheckInResult.self).checkIn.source == .pingAnswer)
            #expect(try await client.call(Operations.clearPing, ["id": ping.id.description], token: bob).status == .conflict)
            #expect(try await client.call(Operations.raiseAlert, token: ada).status == .created)
            let bobSees = try await client.call(Operations.getContactStatus, ["id": adaUser.id.description], token: bob)
            #expect(try bobSees.decode(CheckInStatus.self).state == .alert)
            #expect(try await client.call(Operations.clearAlert, token: ada).status == .ok)

            // Bob's stream carried Ada's status changes and his notifications, in order.
            var text = ""
            while !text.contains("manual_alert_cleared"), let chunk = try await events.next() {
                text += String(buffer: chunk)
            }
            let names = text.split(separator: "\n").filter { $0.hasPrefix("event: ") }.map { $0.dropFirst(7) }
            #expect(names.first == "status")
            #expect(names.contains("notification"))
            #expect(text.contains("\"state\":\"alert\""))
            #expect(text.contains("\"type\":\"manual_alert\""))
        }
    }

    @Test func herLocationNeverTravelsOnHerRespondersLiveStream() async throws {
        let world = try await TestWorld()
        try await world.test(.live) { client in
            let (ada, adaUser) = try await client.signUp(world, first: "Ada", phone: "+447700901011")
            let (bob, _) = try await client.signUp(world, first: "Bob", phone: "+447700901012")
            try await client.link(responder: bob, dependent: ada)
            #expect(
                try await client.call(Operations.updateProfile, token: ada, json: ProfileChanges(shareLocation: true)).status == .ok)

            let port = try #require(client.port)
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/events")
            request.headers.add(name: "Authorization", value: "Bearer \(bob)")
            let stream = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            var events = stream.body.makeAsyncIterator()

            // A fix before the alert, her SOS, the fix her SOS page sends, Bob reading it, the all-clear.
            let before = LocationBody(latitude: 48.2081743, longitude: 16.3738189, accuracyMeters: 35, source: .planStart)
            #expect(try await client.call(Operations.recordLocation, token: ada, json: before).status == .created)
            let sos = try await client.call(Operations.raiseAlert, token: ada).decode(Incident.self)
            let during = LocationBody(latitude: 47.8094561, longitude: 13.0550234, accuracyMeters: 12, source: .sos)
            #expect(try await client.call(Operations.recordLocation, token: ada, json: during).status == .created)
            let read = try await client.call(Operations.getIncidentLocation, ["id": sos.id.description], token: bob)
            #expect(try read.decode(LocationView.self).fix?.latitude == 47.8094561)
            #expect(try await client.call(Operations.clearAlert, token: ada).status == .ok)

            // Everything Bob's stream carried meanwhile: her status and his notifications, and no coordinate.
            var text = ""
            while !text.contains("manual_alert_cleared"), let chunk = try await events.next() {
                text += String(buffer: chunk)
            }
            #expect(text.contains("\"state\":\"alert\"") && text.contains(adaUser.id.description))
            for trace in ["48.208", "16.373", "47.809", "13.055", "482081743", "478094561"] {
                #expect(!text.contains(trace), "\(trace) on the live stream")
            }
        }
    }
}
