import Foundation
import Testing

@testable import LifeSignalLanguage

@Suite("Text messages")
struct TextMessageTests {
    @Test func encodingAndSegments() {
        #expect(TextMessage.encoding(of: "Reply OK to check in.") == .gsm7)
        #expect(TextMessage.encoding(of: "Café à 09:30 ¿Qué? ñ Ü ß") == .gsm7)
        #expect(TextMessage.encoding(of: "9:30\u{202F}PM") == .ucs2)
        #expect(TextMessage.encoding(of: "está") == .ucs2)
        #expect(TextMessage.encoding(of: "اليوم") == .ucs2)
        #expect(TextMessage.segments(of: String(repeating: "a", count: 160)) == 1)
        #expect(TextMessage.segments(of: String(repeating: "a", count: 161)) == 2)
        #expect(TextMessage.segments(of: String(repeating: "a", count: 306)) == 2)
        #expect(TextMessage.segments(of: String(repeating: "a", count: 307)) == 3)
        // The extension table costs two septets.
        #expect(TextMessage.units(of: "€[]") == 6)
        #expect(TextMessage.segments(of: String(repeating: "€", count: 80)) == 1)
        #expect(TextMessage.segments(of: String(repeating: "€", count: 81)) == 2)
        #expect(TextMessage.segments(of: String(repeating: "á", count: 70)) == 1)
        #expect(TextMessage.segments(of: String(repeating: "á", count: 71)) == 2)
        #expect(TextMessage.segments(of: String(repeating: "á", count: 135)) == 3)
    }

    @Test func normalising() {
        let english = Language.english
        #expect(TextMessage.normalise("9:30\u{202F}PM\u{00A0}today", language: english) == "9:30 PM today")
        #expect(TextMessage.normalise("Bob said “I’m on it” — now…", language: english) == "Bob said \"I'm on it\" - now...")
        #expect(TextMessage.normalise("🆘 Ada needs help 👍🏽", language: english) == "SOS Ada needs help")
        #expect(TextMessage.normalise("« Je m'en occupe »", language: Language("fr")!) == "\" Je m'en occupe \"")
        #expect(TextMessage.normalise("«أنا أتولّى الأمر»", language: Language("ar")!) == "«أنا أتولّى الأمر»")
        #expect(TextMessage.normalise("\u{2068}Ada\u{2069}", language: english) == "Ada")
        #expect(
            TextMessage.encoding(
                of: TextMessage.normalise("Check in within 30 minutes — your deadline is today at 09:30.", language: english)) == .gsm7)
    }

    @Test func aTextOverBudgetTakesItsShortForm() {
        let body = String(repeating: "word ", count: 200)
        let text = TextMessage.compose(title: "Title", body: body, link: "https://x.example/a", hint: "Reply OK.", language: .english)
        #expect(text == "Title\nhttps://x.example/a\nReply OK.")
        let long = TextMessage.compose(
            title: String(repeating: "long ", count: 200), body: "", link: nil, hint: nil, language: .english)
        #expect(TextMessage.segments(of: long) == 3)
    }

    /// The texts LifeSignal sends, in every language, about someone with a 40-character name:
    /// never more than three parts, never a narrow or no-break space. Prints the table
    /// (`sms|template|language|encoding|parts|characters`).
    @Test func everyTemplateInEveryLanguageFitsItsBudget() throws {
        let name = "Alexandra Catherine Montgomery-Whitfield"
        try #require(name.count == 40)
        let other = "Maximilian Friedrich von Hohenberg-Adler"
        try #require(other.count == 40)
        let link = "https://lifesignal.example/i/0193f2a4c1d27e3f"
        let templates: [(name: String, title: String, body: String, hint: String?, count: Int?)] = [
            ("reminder", "reminder.title", "reminder.body", "text.reply.checkIn", nil),
            ("reminder late", "reminder.title.late", "reminder.body", "text.reply.checkIn", nil),
            ("last call", "missed.title", "missed.body.soon", "text.reply.checkIn", 10),
            ("last call now", "missed.title", "missed.body.now", "text.reply.checkIn", 2),
            ("last call nobody", "missed.title", "missed.body.nobody", "text.reply.checkIn", nil),
            ("alert missed", "alert.missed.title", "alert.missed.body", "text.reply.onIt", nil),
            ("alert SOS", "alert.sos.title", "alert.sos.body", "text.reply.onIt", nil),
            ("ping", "ping.received.title", "ping.received.body", nil, nil),
            ("ping withdrawn", "ping.withdrawn.title", "ping.withdrawn.body", nil, nil),
            ("ping answered", "ping.answered.title", "ping.answered.body", nil, nil),
            ("ping help", "ping.help.title", "ping.help.body", nil, nil),
            ("ping cleared", "ping.cleared.title", "ping.cleared.body", nil, nil),
            ("taken over", "claim.takenOver.title", "claim.takenOver.body", nil, nil),
            ("handling", "claim.handling.title", "claim.handling.body", nil, nil),
            ("drill", "drill.title", "drill.body", nil, nil),
            ("paused", "pause.paused.title", "pause.paused.body", nil, nil),
            ("resumed", "pause.resumed.title", "pause.resumed.body", nil, nil),
            ("proof code", "proof.title", "proof.body", nil, nil),
            ("number changed", "number.changed.title", "number.changed.body", nil, nil),
        ]
        // Texts about nobody by name: the reader's own reminders and codes.
        let nameless: Set = ["proof code", "number changed", "sign-in code"]
        var table: [String] = []
        var problems: [String] = []
        for tag in ["en", "de", "es", "fr", "ar"] {
            let words = Words(Language(tag)!)
            let when = words("time.bothClocks", ["theirs": words("time.today", ["time": "09:30"]), "yours": "08:30"])
            let arguments = [
                "name": name, "me": other, "when": when, "duration": words.duration(seconds: 1800),
                "names": words.list([other, name]), "code": "042917", "digits": "0599",
            ]
            for template in templates {
                var title = words(template.title, arguments)
                if template.name.hasPrefix("alert") { title = words("alert.round", ["title": title, "round": "2"]) }
                let text = TextMessage.compose(
                    title: title, body: words(template.body, arguments, count: template.count), link: link,
                    hint: template.hint.map { words($0) }, language: words.language)
                let parts = TextMessage.segments(of: text)
                table.append("sms|\(template.name)|\(tag)|\(TextMessage.encoding(of: text).rawValue)|\(parts)|\(text.count)")
                if parts > TextMessage.maximumSegments { problems.append("\(template.name) \(tag): \(parts) parts") }
                if text.unicodeScalars.contains(where: { [0x202F, 0x00A0, 0x2009, 0x2007].contains($0.value) }) {
                    problems.append("\(template.name) \(tag): a narrow or no-break space")
                }
                if !text.contains(name) && !text.contains(other) && template.body != "missed.body.nobody"
                    && !template.name.hasPrefix("reminder") && !template.name.hasPrefix("last call")
                    && !nameless.contains(template.name)
                {
                    problems.append("\(template.name) \(tag): the name was lost")
                }
            }
            // The sign-in code goes out alone, without a link or a reply line.
            let code = TextMessage.normalise(words("code.text", ["code": "042917"]), language: words.language)
            table.append(
                "sms|sign-in code|\(tag)|\(TextMessage.encoding(of: code).rawValue)|\(TextMessage.segments(of: code))|\(code.count)")
            if TextMessage.segments(of: code) > 1 { problems.append("sign-in code \(tag): more than one part") }
        }
        print(table.joined(separator: "\n"))
        #expect(problems == [])
    }
}
