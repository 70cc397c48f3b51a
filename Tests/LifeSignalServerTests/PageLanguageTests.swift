import Foundation
import Hummingbird
import HummingbirdTesting
@_spi(Testing) import LifeSignalCore
import LifeSignalAPI
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalTestSupport
import Testing

@testable import LifeSignalServer

/// A person's language through the API and on the pages: `PATCH /v1/me {"language"}`, the
/// browser's language on first use, `<html lang dir>`, and a responder's takeover in German.
@Suite struct PageLanguageTests {
    static let ada = "+34612345670", bob = "+12025550140"

    static func page(
        _ client: any TestClientProtocol, _ path: String, _ token: String, acceptLanguage: String? = nil
    ) async throws -> String {
        var headers: HTTPFields = [.cookie: "ls_session=\(token)"]
        if let acceptLanguage { headers[.acceptLanguage] = acceptLanguage }
        return try await client.execute(uri: path, method: .get, headers: headers) { String(buffer: $0.body) }
    }

    @Test func theLanguageIsSetReturnedAndValidatedByTheAPI() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: Self.ada)
            let before = try await client.call(Operations.getProfile, token: ada).decode(User.self)
            #expect(before.language == nil)
            let set = try await client.call(Operations.updateProfile, token: ada, json: ProfileChanges(language: "es-mx"))
            #expect(set.status == .ok)
            #expect(try set.decode(User.self).language == "es-MX")
            let junk = try await client.call(
                Operations.updateProfile, token: ada, json: ProfileChanges(firstName: "Zed", language: "español!"))
            #expect(junk.status == .badRequest)
            #expect(String(decoding: junk.body, as: UTF8.self).contains("invalid_language"))
            let after = try await client.call(Operations.getProfile, token: ada).decode(User.self)
            #expect(after.language == "es-MX" && after.firstName == "Ada")
        }
    }

    /// The API's error `message` is in the language the caller asks for (`Accept-Language`),
    /// numbers and names in place; without one it is the English it always was, and the `code`
    /// never changes.
    @Test func anAPIRefusalIsInTheLanguageAskedFor() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, adaUser) = try await client.signUp(world, first: "Ada", phone: Self.ada)
            let (bob, _) = try await client.signUp(world, first: "Bob", phone: Self.bob)
            try await client.link(responder: bob, dependent: ada)
            let path = Operations.checkInOnBehalf.path(["id": adaUser.id.description])
            @Sendable func behalf(_ language: String?) async throws -> (HTTPResponse.Status, String) {
                var headers: HTTPFields = [.authorization: "Bearer \(bob)", .contentType: "application/json"]
                if let language { headers[.acceptLanguage] = language }
                return try await client.execute(
                    uri: path, method: .post, headers: headers, body: ByteBuffer(string: #"{"id":"\#(UUID().uuidString)"}"#)
                ) { ($0.status, String(buffer: $0.body)) }
            }
            let (status, english) = try await behalf(nil)
            #expect(status == .forbidden)
            #expect(english.contains("You can check in for Ada only once they have missed a check-in"), "\(english)")
            let (_, french) = try await behalf("fr-CH, en;q=0.5")
            #expect(french.contains("Vous ne pouvez donner des nouvelles pour Ada qu'après"), "\(french)")
            #expect(french.contains(#""code":"not_overdue""#))
            let (_, unknown) = try await behalf("ja")
            #expect(unknown == english)
        }
    }

    /// The error pages (outside the session, before any person is known) take the browser's
    /// language: a missing page, and the outage page with the refusal's own words.
    @Test func errorPagesTakeTheBrowsersLanguage() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let missing = try await client.execute(
                uri: "/nothing-here", method: .get, headers: [.accept: "text/html", .acceptLanguage: "de-DE,de;q=0.9"]
            ) { String(buffer: $0.body) }
            #expect(missing.contains(#"<html lang="de-DE" dir="ltr">"#), "\(missing)")
            #expect(missing.contains("<h1>Seite nicht gefunden</h1>") && missing.contains(">Zu LifeSignal</a>"))
            let english = try await client.execute(uri: "/nothing-here", method: .get, headers: [.accept: "text/html"]) {
                String(buffer: $0.body)
            }
            #expect(english.contains(#"<html lang="en" dir="ltr">"#) && english.contains("<h1>Page not found</h1>"))
        }
        typealias Pages = ErrorMiddleware<AppRequestContext>
        let arabic = Words(Language("ar")!)
        let page = Pages.document(
            title: Pages.unavailableTitle(arabic), text: Pages.unavailableText(.unavailable, arabic), words: arabic)
        #expect(page.contains(#"<html lang="ar" dir="rtl">"#))
        #expect(page.contains("<h1>LifeSignal غير متاح لفترة قصيرة</h1>"))
        #expect(page.contains("لا يستطيع LifeSignal الوصول إلى قاعدة بياناته الآن."))
        #expect(Pages.unavailableText(.unavailable, .english).hasSuffix("Please try again shortly. This page will look again by itself."))
    }

    /// Her first page with no language yet takes the browser's (a shipped one); pages carry
    /// `lang` and `dir`; Arabic is right to left.
    @Test func theBrowsersLanguageOnFirstUseAndLangDirOnPages() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: Self.ada)
            let home = try await Self.page(client, "/", ada, acceptLanguage: "ja, de-CH;q=0.8, en;q=0.5")
            #expect(home.contains(#"<html lang="de-CH" dir="ltr">"#), "\(home.prefix(200))")
            #expect(home.contains("Mir geht es gut"))
            #expect(try await client.call(Operations.getProfile, token: ada).decode(User.self).language == "de-CH")
            // Chosen once: another browser's language does not change it.
            let again = try await Self.page(client, "/", ada, acceptLanguage: "fr")
            #expect(again.contains(#"<html lang="de-CH""#))
            _ = try await client.call(Operations.updateProfile, token: ada, json: ProfileChanges(language: "ar"))
            let arabic = try await Self.page(client, "/", ada)
            #expect(arabic.contains(#"<html lang="ar" dir="rtl">"#))
            #expect(arabic.contains("أنا بخير"))
            let settings = try await Self.page(client, "/settings", ada)
            #expect(settings.contains(#"<option value="ar" lang="ar" selected>العربية</option>"#), "\(settings)")
        }
    }

    /// Bob reads Ada's SOS in German on his Home; she reads hers in English.
    @Test func aGermanResponderSeesTheTakeoverInGerman() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: Self.ada)
            let (bob, _) = try await client.signUp(world, first: "Bob", phone: Self.bob)
            _ = try await client.call(Operations.updateProfile, token: ada, json: ProfileChanges(language: "en"))
            _ = try await client.call(Operations.updateProfile, token: bob, json: ProfileChanges(language: "de"))
            try await client.link(responder: bob, dependent: ada)
            _ = try await client.call(Operations.raiseAlert, token: ada)
            let home = try await Self.page(client, "/", bob)
            #expect(home.contains("Ada Tester braucht Hilfe"), "\(home)")
            #expect(home.contains("Notruf ausgelöst heute um"))
            #expect(home.contains(">Ich kümmere mich</button>"))
            #expect(home.contains("Wer benachrichtigt wurde und was Sie noch tun können"))
            let hers = try await Self.page(client, "/", ada)
            #expect(hers.contains("Your emergency alert is active."))
            #expect(hers.contains(#"<html lang="en" dir="ltr">"#))
        }
    }
}
