import Foundation
import HTTPTypes
import LifeSignalAPI
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// `POST /v1/check-ins` with `"callMe": true`, and the web page's second button, over HTTP.
struct CallMeTests {
    @Test func theAPIAnswersWhoWasAskedAndSaysNothingWithoutIt() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700900721")
            let (bob, _) = try await client.signUp(world, first: "Bob", phone: "+447700900722")

            // Nobody watches over her yet: the check-in counts, nobody could be asked.
            let alone = try await client.call(Operations.checkIn, token: ada, json: CheckInBody(id: CheckInID(UUID()), callMe: true))
            #expect(alone.status == .created)
            #expect(try alone.decode(CheckInResult.self).callRequest == CallRequest(outcome: .nobody))

            try await client.link(responder: bob, dependent: ada)
            let body = CheckInBody(id: CheckInID(UUID()), callMe: true)
            let asked = try await client.call(Operations.checkIn, token: ada, json: body)
            #expect(asked.status == .created)
            let json = String(decoding: asked.body, as: UTF8.self)
            #expect(json.contains(#""callRequest":{"outcome":"asked","told":["Bob Tester"]}"#), "\(json)")
            let page = try await client.call(Operations.listNotifications, token: bob).decode(NotificationPage.self)
            let told = try #require(page.items.first { $0.type == .callRequest })
            #expect(told.title == "Ada Tester would like a call today")
            #expect(told.body.hasPrefix("Ada Tester checked in with the app today at 08:00 "), "\(told.body)")

            // The same id again: 200, recorded once, nobody told again.
            let again = try await client.call(Operations.checkIn, token: ada, json: body)
            #expect(again.status == .ok)
            #expect(try again.decode(CheckInResult.self).callRequest == CallRequest(outcome: .alreadyAsked))

            // Without callMe the answer has no callRequest at all (nil is omitted, never null).
            let plain = try await client.call(Operations.checkIn, token: ada, json: CheckInBody(id: CheckInID(UUID())))
            #expect(!String(decoding: plain.body, as: UTF8.self).contains("callRequest"))

            // Her own check-in token may ask too (once a day still: already asked).
            let made = try await client.call(
                Operations.createAPIToken, token: ada, json: TokenNameBody(name: "button", scope: .checkIn)
            ).decode(TokenResponse.self)
            let byToken = try await client.call(
                Operations.checkIn, token: made.token, json: CheckInBody(id: CheckInID(UUID()), callMe: true))
            #expect(try byToken.decode(CheckInResult.self).callRequest == CallRequest(outcome: .alreadyAsked))
            let bobs = try await client.call(Operations.listNotifications, token: bob).decode(NotificationPage.self)
            #expect(bobs.items.filter { $0.type == .callRequest }.count == 1)
        }
    }
}
