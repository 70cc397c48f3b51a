import Foundation
import LifeSignalDelivery
import LifeSignalLanguage
import LifeSignalModels
import Testing

/// What the adapters add themselves — a text's reply line, a call's voice and prompts, an
/// e-mail's `Content-Language` — in the recipient's language.
@Suite struct LanguageDeliveryTests {
    static func message(
        _ channel: ChannelKind, language: String?, kind: LifeSignalModels.Notification.Kind = .incidentOpened,
        title: String = "Ada hat sich nicht gemeldet", body: String = "Ada sollte sich heute um 09:30 melden."
    ) -> OutgoingMessage {
        var message = OutgoingMessage.fixture(channel: channel, address: "+15551234567", kind: kind, title: title, body: body)
        message.language = language
        return message
    }

    /// The voice table, as the closing note prints it: language → `<Say>` voice and language.
    @Test func theVoiceTable() {
        var rows: [String] = []
        for tag in ["en", "en-US", "de", "de-AT", "es", "es-MX", "es-US", "fr", "fr-CA", "ar", "ja", "xx-PS"] {
            let choice = CallVoice.choose(for: Language(tag)!, english: "Polly.Amy")
            rows.append(
                "voice|\(tag)|\(choice.voice.voice ?? "-")|\(choice.voice.language ?? "-")|\(choice.known ? "table" : "English (logged)")")
        }
        print(rows.joined(separator: "\n"))
        #expect(CallVoice.choose(for: Language("de-AT")!, english: nil).voice == CallVoice(voice: "Polly.Vicki", language: "de-DE"))
        #expect(CallVoice.choose(for: Language("es-MX")!, english: nil).voice == CallVoice(voice: "Polly.Mia", language: "es-MX"))
        #expect(CallVoice.choose(for: Language("ar")!, english: nil).voice == CallVoice(voice: "Polly.Zeina", language: "arb"))
        #expect(CallVoice.choose(for: .english, english: "Polly.Amy") == (CallVoice(voice: "Polly.Amy", language: nil), true))
        let unknown = CallVoice.choose(for: Language("ja")!, english: nil)
        #expect(unknown.voice == CallVoice(voice: nil, language: nil) && !unknown.known)
        // Every shipped language but English has a voice of its own.
        for tag in ["de", "es", "fr", "ar"] { #expect(CallVoice.choose(for: Language(tag)!, english: nil).known) }
    }

    @Test func aGermanCallIsReadInGermanWithItsPrompts() {
        let twiml = TwilioChannel.twiml(Self.message(.voice, language: "de"), voice: "Polly.Amy", keypressURL: "https://x.test/keys")
        #expect(
            twiml.contains(
                #"<Say voice="Polly.Vicki" language="de-DE">Ada hat sich nicht gemeldet. Ada sollte sich heute um 09:30 melden.</Say>"#))
        #expect(twiml.contains("Drücken Sie die 1, wenn Sie sich kümmern."))
        #expect(twiml.contains("Es wurde keine Taste gedrückt. Auf Wiederhören."))
        #expect(!twiml.contains("Press 1"))
    }

    /// A language without a voice: English voice and prompts (its words came in English).
    @Test func anUnknownLanguageIsReadInEnglish() {
        let twiml = TwilioChannel.twiml(
            Self.message(.voice, language: "ja", title: "Ada missed a check-in", body: "Call her."), voice: nil,
            keypressURL: "https://x.test/keys")
        #expect(twiml.contains("<Say>Press 1 to say you&apos;re on it.</Say>"))
        #expect(!twiml.contains("language="))
    }

    @Test func aSpanishTextEndsWithItsReplyLineAndFitsThreeParts() {
        let text = TwilioChannel.smsText(
            Self.message(
                .sms, language: "es", title: "Ada no ha confirmado que está bien",
                body: "Ada debía confirmar que estaba bien hoy a las 09:30 y no lo ha hecho."))
        #expect(text.hasSuffix("\nResponda 1 o VOY si se encarga usted."))
        #expect(TextMessage.segments(of: text) <= 3)
        // English keeps its words, now all in GSM-7 (the em dash was UCS-2).
        let english = TwilioChannel.smsText(
            Self.message(
                .sms, language: nil, kind: .reminder, title: "Time to check in",
                body: "Check in within 30 minutes — your deadline is today at 09:30."))
        #expect(
            english
                == "Time to check in\nCheck in within 30 minutes - your deadline is today at 09:30.\nhttps://lifesignal.example/incidents/1\nReply OK to check in."
        )
        #expect(TextMessage.encoding(of: english) == .gsm7)
    }
}
