import LifeSignalLanguage
import Testing

@testable import LifeSignalRules

/// A delivery's stored reason (English, the record) read in the reader's language.
@Suite struct DeliveryReasonTests {
    static let german = Words(Language("de")!), french = Words(Language("fr")!), arabic = Words(Language("ar")!)

    @Test(arguments: [
        ("The line was busy.", "Die Leitung war besetzt."),
        ("The SMS provider did not answer in time.", "Der SMS-Anbieter: keine Antwort in der vorgesehenen Zeit."),
        (
            "The webhook endpoint answered with an error. Gave up after 5 attempts.",
            "Der Webhook-Endpunkt: Antwort mit einem Fehler. Nach 5 Versuchen aufgegeben."
        ),
        ("The text message could not be delivered. (error 30003)", "Die SMS konnte nicht zugestellt werden. (Fehler 30003)"),
        ("The mail server refused the message (550).", "Der Mailserver hat die Nachricht abgelehnt (550)."),
    ])
    func aKnownReasonIsSaidInGerman(stored: String, said: String) {
        #expect(DeliveryReason.text(stored, in: Self.german) == said)
    }

    @Test func pluralsAndOtherLanguages() {
        #expect(
            DeliveryReason.text("Apple's push service could not be reached. Gave up after 1 attempts.", in: Self.french)
                == "Le service push d'Apple : injoignable. Abandon après 1 essai.")
        #expect(DeliveryReason.text("Nobody answered the call.", in: Self.arabic) == "لم يردّ أحد على المكالمة.")
    }

    /// English readers read the record as stored (its "1 attempts" included); a reason it does
    /// not know is shown as stored in every language.
    @Test func englishAndUnknownReasonsAreTheRecord() {
        let stored = "The SMS provider is busy; it will be tried again. Gave up after 1 attempts."
        #expect(DeliveryReason.text(stored, in: .english) == stored)
        #expect(DeliveryReason.text("Something new went wrong.", in: Self.german) == "Something new went wrong.")
        #expect(DeliveryReason.said("The SMS provider did something else.") == nil)
    }

    /// Each known sentence's English in the catalogue is the sentence as stored.
    @Test func theCataloguesEnglishIsTheStoredSentence() {
        for (english, key) in DeliveryReason.fixed {
            #expect(Words.english(key) == english, "\(key)")
        }
        for template in DeliveryReason.templates {
            for (english, _) in DeliveryReason.providers {
                let sentence = Words.english(template, ["provider": english])
                #expect(DeliveryReason.said(sentence)?.first?.key == template, "\(sentence)")
            }
        }
    }
}
