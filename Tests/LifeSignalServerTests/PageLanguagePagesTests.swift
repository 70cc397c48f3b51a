import Foundation
import Hummingbird
import HummingbirdTesting
@_spi(Testing) import LifeSignalCore
import LifeSignalAPI
import LifeSignalModels
import LifeSignalTestSupport
import Testing

@testable import LifeSignalServer

/// The pages beyond Home and the incident read in the reader's language: sign-in before an
/// account (the browser's language), Settings, Profile, Contacts, a contact, Notifications and
/// the timeline in German and Arabic, each with `lang` and `dir`, a word of the language and
/// none of the English sentences it replaces.
@Suite struct PageLanguagePagesTests {
    static let ada = "+34612345671", bob = "+12025550141"

    /// Each page: its words in the language, and English sentences of the same page absent.
    static func expect(
        _ html: String, lang: String, dir: String, has words: [String], lacks english: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(html.contains(#"<html lang="\#(lang)" dir="\#(dir)">"#), "\(html.prefix(120))", sourceLocation: sourceLocation)
        for word in words {
            #expect(html.contains(word), "missing \(word)", sourceLocation: sourceLocation)
        }
        for sentence in english {
            #expect(!html.contains(sentence), "English left: \(sentence)", sourceLocation: sourceLocation)
        }
    }

    @Test func signedOutPagesTakeTheBrowsersLanguage() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let german = try await client.execute(uri: "/signin", method: .get, headers: [.acceptLanguage: "de-DE,de;q=0.9"]) {
                String(buffer: $0.body)
            }
            Self.expect(
                german, lang: "de-DE", dir: "ltr", has: ["Handynummer", "Anmelden oder Konto erstellen", "Land der Nummer"],
                lacks: ["Mobile number", "Sign in or create your account", "Country of the number", "Send code"])
            let arabic = try await client.execute(
                uri: "/signin/code?phone=%2B34612345671&resend=0", method: .get, headers: [.acceptLanguage: "ar"]
            ) { String(buffer: $0.body) }
            // The number stays as it was typed, set off in the reader's sentence.
            Self.expect(
                arabic, lang: "ar", dir: "rtl",
                has: [#"أرسلنا رمزًا من 6 أرقام إلى <strong dir="ltr">+34612345671</strong>"#, "أرسل رمزًا جديدًا"],
                lacks: ["Enter your code", "We sent a 6-digit code", "Send a new code", "Use a different number"])
            // The pseudo-locale is taken from a browser that asks for it first, for tests.
            let pseudo = try await client.execute(uri: "/signin", method: .get, headers: [.acceptLanguage: "xx-PS"]) {
                String(buffer: $0.body)
            }
            #expect(pseudo.contains(#"<html lang="en" dir="ltr">"#))
            #expect(pseudo.contains("[Möbílé ñümbér]"), "\(pseudo)")
            #expect(!pseudo.contains("Mobile number"))
        }
    }

    /// A refusal of the service is said in the reader's language where the catalogue has its
    /// words: a second code asked for too soon, with the wait, in German.
    @Test func aRefusalIsSaidInTheReadersLanguage() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let cookies = try await client.execute(uri: "/signin", method: .get) { $0.headers[values: .setCookie] }
            let csrf = try #require(cookies.first { $0.hasPrefix("ls_csrf=") }?.dropFirst(8).prefix { $0 != ";" })
            @Sendable func ask() async throws -> (HTTPResponse.Status, String) {
                try await client.execute(
                    uri: "/signin", method: .post,
                    headers: [
                        .cookie: "ls_csrf=\(csrf)", .contentType: "application/x-www-form-urlencoded", .acceptLanguage: "de",
                    ],
                    body: ByteBuffer(string: "_csrf=\(csrf)&phone=%2B34612345672")
                ) { ($0.status, String(buffer: $0.body)) }
            }
            #expect(try await ask().0 == .seeOther)
            let (status, again) = try await ask()
            #expect(status == .badRequest)
            #expect(again.contains("Wir haben gerade einen Code gesendet. Sie können in "), "\(again)")
            #expect(!again.contains("We just sent a code"))
        }
    }

    /// A wrong code is said with the attempts left in the reader's language and plural form,
    /// then the wait in minutes once they are used up: the refusal carries its catalogue words,
    /// not English to be matched.
    @Test func aWrongCodeIsSaidWithItsNumbersInTheReadersLanguage() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let phone = "+34612345673"
            let cookies = try await client.execute(uri: "/signin", method: .get) { $0.headers[values: .setCookie] }
            let csrf = try #require(cookies.first { $0.hasPrefix("ls_csrf=") }?.dropFirst(8).prefix { $0 != ";" })
            @Sendable func post(_ path: String, _ fields: String, _ language: String) async throws -> String {
                try await client.execute(
                    uri: path, method: .post,
                    headers: [
                        .cookie: "ls_csrf=\(csrf)", .contentType: "application/x-www-form-urlencoded", .acceptLanguage: language,
                    ],
                    body: ByteBuffer(string: "_csrf=\(csrf)&\(fields)")
                ) { String(buffer: $0.body) }
            }
            _ = try await post("/signin", "phone=%2B34612345673", "de")
            let right = try #require(world.code(for: phone))
            let wrong = right == "111111" ? "222222" : "111111"
            let german = try await post("/signin/code", "phone=%2B34612345673&code=\(wrong)", "de")
            #expect(german.contains("Dieser Code ist nicht richtig. Noch 4 Versuche."), "\(german)")
            #expect(!german.contains("That code isn't right"))
            _ = try await post("/signin/code", "phone=%2B34612345673&code=\(wrong)", "de")
            _ = try await post("/signin/code", "phone=%2B34612345673&code=\(wrong)", "de")
            let spanish = try await post("/signin/code", "phone=%2B34612345673&code=\(wrong)", "es")
            #expect(spanish.contains("Ese código no es correcto. Le queda 1 intento."), "\(spanish)")
            let arabic = try await post("/signin/code", "phone=%2B34612345673&code=\(wrong)", "ar")
            #expect(arabic.contains("رموز خاطئة كثيرة جدًا. انتظر 5 دقائق، ثم اطلب رمزًا جديدًا."), "\(arabic)")
        }
    }

    /// A number that cannot be read is refused in the reader's language, the country picked
    /// named in it too; the picker lists the countries by their names in that language
    /// (Foundation's region names work on this toolchain).
    @Test func aPhoneRefusalAndTheCountriesInTheReadersLanguage() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let german = try await client.execute(uri: "/signin", method: .get, headers: [.acceptLanguage: "de"]) { $0 }
            let page = String(buffer: german.body)
            #expect(page.contains(">Deutschland (+49)</option>"), "\(page)")
            #expect(page.contains(">Vereinigtes Königreich (+44)</option>"))
            let cookies = german.headers[values: .setCookie]
            let csrf = try #require(cookies.first { $0.hasPrefix("ls_csrf=") }?.dropFirst(8).prefix { $0 != ";" })
            @Sendable func ask(_ phone: String, _ language: String) async throws -> String {
                try await client.execute(
                    uri: "/signin", method: .post,
                    headers: [
                        .cookie: "ls_csrf=\(csrf)", .contentType: "application/x-www-form-urlencoded", .acceptLanguage: language,
                    ],
                    body: ByteBuffer(string: "_csrf=\(csrf)&region=DE&phone=\(phone)")
                ) { String(buffer: $0.body) }
            }
            let wrong = try await ask("0301", "de")
            #expect(
                wrong.contains("Das ist keine Telefonnummer in diesem Land (Deutschland). Prüfen Sie sie oder wählen Sie ihr Land."),
                "\(wrong)")
            let arabic = try await ask("0301", "ar")
            #expect(arabic.contains("هذا ليس رقم هاتف في ألمانيا. تحقّق منه أو اختر بلده."), "\(arabic)")
            let empty = try await ask("", "es")
            #expect(empty.contains("Introduzca su número de teléfono."), "\(empty)")
        }
    }

    /// A form sent without its token is refused in plain text, in the browser's language.
    @Test func anExpiredFormIsSaidInTheBrowsersLanguage() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (status, language, text) = try await client.execute(
                uri: "/signin", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded", .acceptLanguage: "fr-FR"],
                body: ByteBuffer(string: "phone=%2B34612345674")
            ) { ($0.status, $0.headers[.contentLanguage], String(buffer: $0.body)) }
            #expect(status == .forbidden)
            #expect(language == "fr-FR")
            #expect(text == "Ce formulaire a expiré. Revenez en arrière, rechargez la page et réessayez.")
        }
    }

    @Test func settingsProfileContactsAndTimelineInGermanAndArabic() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: Self.ada)
            let (bob, bobUser) = try await client.signUp(world, first: "Bob", phone: Self.bob)
            try await client.link(responder: bob, dependent: ada)
            _ = try await client.call(Operations.updateProfile, token: ada, json: ProfileChanges(language: "de"))
            let settings = try await PageLanguageTests.page(client, "/settings", ada)
            Self.expect(
                settings, lang: "de", dir: "ltr",
                has: ["Ihre Zeitzone", "Wie Sie erreicht werden", "Kanal hinzufügen", "<title>Einstellungen"],
                lacks: ["Your time zone", "How you", "Add a channel", "Grace period", "Open timeline", "<title>Settings"])
            let contacts = try await PageLanguageTests.page(client, "/contacts", ada)
            Self.expect(
                contacts, lang: "de", dir: "ltr", has: ["Vertrauenspersonen", "Bob Tester", "Kontakt hinzufügen"],
                lacks: ["Responders", "Add a contact", "No dependents yet", "last check-in"])
            let contact = try await PageLanguageTests.page(client, "/contacts/\(bobUser.id.description)", ada)
            Self.expect(
                contact, lang: "de", dir: "ltr",
                has: ["Rollen speichern", "Vertrauensperson – passt auf mich auf", "Ja, Bob Tester entfernen"],
                lacks: ["Save roles", "Remove contact", "Yes, remove", "watches over you"])
            let timeline = try await PageLanguageTests.page(client, "/timeline", ada)
            // The escalation preview is said from its steps, in her words.
            Self.expect(
                timeline, lang: "de", dir: "ltr", has: ["Übung starten", "Alarm an Bob Tester per ", "Kette intakt", "Konto erstellt"],
                lacks: ["Run a drill", "Reminder to you", "Alert Bob", "Chain intact", "Export as JSON", "Account created"])

            _ = try await client.call(Operations.updateProfile, token: ada, json: ProfileChanges(language: "ar"))
            let profile = try await PageLanguageTests.page(client, "/profile", ada)
            Self.expect(
                profile, lang: "ar", dir: "rtl", has: ["عنك", "احذف حسابي", "اكتب DELETE للتأكيد", "هذا المتصفح"],
                lacks: ["About you", "Delete my account", "Type DELETE", "this browser", "Where you"])
            let notifications = try await PageLanguageTests.page(client, "/notifications", ada)
            Self.expect(
                notifications, lang: "ar", dir: "rtl", has: ["غير المقروءة فقط", "تصفية الإشعارات"],
                lacks: ["Unread only", "Filter notifications", "Everything", " unread<"])
            let home = try await PageLanguageTests.page(client, "/", ada)
            Self.expect(
                home, lang: "ar", dir: "rtl", has: ["إيقاعك", "كل 24 ساعة"],
                lacks: ["Your rhythm", "every 24 hours", "Remind me", "No reminder"])
        }
    }

    /// English stays the default, word for word: the browser tests read these sentences.
    @Test func englishPagesReadAsBefore() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: Self.ada)
            _ = try await client.call(Operations.updateProfile, token: ada, json: ProfileChanges(language: "en"))
            let home = try await PageLanguageTests.page(client, "/", ada)
            #expect(home.contains(#"Check in <strong id="rhythm-now">every 24 hours</strong> · reminder: "#), "\(home)")
            let settings = try await PageLanguageTests.page(client, "/settings", ada)
            #expect(settings.contains(#"<option value="10" selected>10 minutes</option>"#))
            #expect(settings.contains("Grace before your responders are told"))
            let notifications = try await PageLanguageTests.page(client, "/notifications", ada)
            #expect(notifications.contains(#"<p id="unread-count">0 unread</p>"#))
        }
    }
}
