import Foundation
import Hummingbird
import HummingbirdTesting
import LifeSignalAPI
import LifeSignalModels
import LifeSignalTestSupport
import Testing

@testable import LifeSignalServer

/// The person's own sealed-details page: what they are and who may open them, the form, and a
/// save that keeps line breaks and refuses too much text without changing anything.
@Suite struct SealedDetailsPageTests {
    @Test func sheWritesThemOnTheirOwnPageAndSeesWhoMayOpenThem() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700900650")
            let page = try await ResponderPagesTests.page(client, "/profile/sealed-details", ada)
            #expect(page.contains("Only your responders, and only while an alert about you is open."))
            #expect(page.contains(#"maxlength="2000""#))

            let csrf = try await ResponderPagesTests.csrf(client, ada)
            @Sendable func save(_ text: String) async throws -> (HTTPResponse.Status, String?) {
                try await client.execute(
                    uri: "/profile/sealed-details", method: .post,
                    headers: [.cookie: "ls_session=\(ada)", .contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "_csrf=\(csrf)&sealed=" + FormCoding.escape(text))
                ) { response in
                    (
                        response.status,
                        response.headers[values: .setCookie].first { $0.hasPrefix("ls_flash=") }
                            .map { String($0.dropFirst("ls_flash=".count).prefix { $0 != ";" }).removingPercentEncoding ?? "" }
                    )
                }
            }
            let saved = try await save("Key under the blue pot\r\nDoor code 4711")
            #expect(saved.0 == .seeOther)
            #expect(saved.1 == "Sealed details saved.")
            let own = try await client.call(Operations.getSealedDetails, token: ada).decode(SealedDetails.self)
            #expect(own.details == "Key under the blue pot\nDoor code 4711")
            let shown = try await ResponderPagesTests.page(client, "/profile/sealed-details", ada)
            #expect(shown.contains("Key under the blue pot\nDoor code 4711</textarea>"))
            #expect(shown.contains(#"id="sealed-updated""#))

            let refused = try await save(String(repeating: "x", count: 2001))
            #expect(refused.1 == "Sealed details can be at most 2,000 characters.")
            #expect(try await client.call(Operations.getSealedDetails, token: ada).decode(SealedDetails.self) == own)
        }
    }
}
