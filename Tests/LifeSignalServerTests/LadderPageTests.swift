import Foundation
import Hummingbird
import HummingbirdTesting
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

@testable import LifeSignalServer

/// The ladder page: the plan in words with real times, one form for the steps, the waits and
/// the key, a refusal that names the step and changes nothing, and the incident page saying
/// where an alert is on the ladder and when nobody has confirmed they are coming.
@Suite struct LadderPageTests {
    @Test func sheOrdersHerPeopleOnOneFormAndSeesThePlan() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700900660")
            let (cleo, cleoUser) = try await client.signUp(world, first: "Cleo", phone: "+447700900661")
            let (bob, bobUser) = try await client.signUp(world, first: "Bob", phone: "+447700900662")
            try await client.link(responder: cleo, dependent: ada)
            try await client.link(responder: bob, dependent: ada)
            let first = try await ResponderPagesTests.page(client, "/profile/ladder", ada)
            #expect(first.contains(#"id="ladder-preview">If you miss "#))
            #expect(first.contains(#"<option value="last" selected>With everyone else (last step)</option>"#))
            #expect(try await ResponderPagesTests.page(client, "/profile", ada).contains(#"href="/profile/ladder""#))

            let csrf = try await ResponderPagesTests.csrf(client, ada)
            @Sendable func save(_ fields: [String: String]) async throws -> String? {
                let body = (["_csrf": csrf].merging(fields) { $1 }).map { "\($0)=\(FormCoding.escape($1))" }.joined(separator: "&")
                return try await client.execute(
                    uri: "/profile/ladder", method: .post,
                    headers: [.cookie: "ls_session=\(ada)", .contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: body)
                ) { response in
                    response.headers[values: .setCookie].first { $0.hasPrefix("ls_flash=") }
                        .map { String($0.dropFirst("ls_flash=".count).prefix { $0 != ";" }).removingPercentEncoding ?? "" }
                }
            }
            // A wait that is not a number: refused with the step named, nothing saved.
            let refused = try await save([
                "version": "0", "steps": "2", "wait-2": "soon", "step-\(cleoUser.id)": "1", "step-\(bobUser.id)": "2",
            ])
            #expect(refused == "Step 2: the wait must be between 1 and 120 minutes.")
            #expect(try await client.call(Operations.getLadder, token: ada).decode(Ladder.self) == .default)

            let saved = try await save([
                "version": "0", "steps": "2", "wait-2": "20", "step-\(cleoUser.id)": "1", "step-\(bobUser.id)": "last",
                "key-\(cleoUser.id)": "1",
            ])
            #expect(saved == "Saved. Open alerts keep the order they started with.")
            let ladder = try await client.call(Operations.getLadder, token: ada).decode(Ladder.self)
            #expect(ladder.version == 1)
            #expect(ladder.steps == [Ladder.Step(responders: [cleoUser.id], waitMinutes: 0), Ladder.Step(responders: [], waitMinutes: 20)])
            let cleoContact = try await client.call(Operations.getContact, ["id": cleoUser.id.description], token: ada)
            #expect(try cleoContact.decode(Contact.self).keyHolder == true)
            let shown = try await ResponderPagesTests.page(client, "/profile/ladder", ada)
            #expect(shown.contains(#"name="key-\#(cleoUser.id)" value="1" checked"#))
            #expect(shown.contains("Cleo Tester"))
            // Saving from the page as it was (version 0) again is refused: it changed since.
            let stale = try await save(["version": "0", "steps": "1"])
            #expect(stale == "Your ladder was changed somewhere else. Look at it again, then save.")
        }
    }

    @Test func theIncidentPageSaysWhenNobodyHasConfirmedTheyAreComing() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700900670")
            let (bob, bobUser) = try await client.signUp(world, first: "Bob", phone: "+447700900671")
            let (cy, _) = try await client.signUp(world, first: "Cy", phone: "+447700900672")
            try await client.link(responder: bob, dependent: ada)
            try await client.link(responder: cy, dependent: ada)
            _ = try await client.call(
                Operations.setLadder, token: ada,
                json: LadderChange(
                    steps: [Ladder.Step(responders: [bobUser.id], waitMinutes: 0), Ladder.Step(responders: [], waitMinutes: 15)],
                    sosClimbs: true, version: 0))
            let sos = try await client.call(Operations.raiseAlert, token: ada).decode(Incident.self)
            let engine = EscalationEngine(core: world.core, instance: "test")
            let climbing = try await ResponderPagesTests.page(client, "/incidents/\(sos.id)", bob)
            #expect(climbing.contains(#"<p id="ladder-state">Step 1 of 2. The next step is told "#))
            world.clock.advance(by: 15 * 60)
            try await engine.runPass()
            world.clock.advance(by: 30 * 60)
            #expect(try await engine.runPass().exhausted == 1)
            let bobs = try await ResponderPagesTests.page(client, "/incidents/\(sos.id)", bob)
            #expect(bobs.contains("Nobody has confirmed they are coming. Go or call Ada now; if you cannot reach Ada, call 999."))
            let hers = try await ResponderPagesTests.page(client, "/incidents/\(sos.id)", ada)
            #expect(hers.contains("Nobody has confirmed they are coming yet. We are calling everyone. If you need help, call 999."))
        }
    }
}
