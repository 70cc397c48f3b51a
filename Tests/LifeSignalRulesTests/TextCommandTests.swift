import LifeSignalRules
import Testing

/// How texts typed on small keypads are read.
@Suite("Text commands")
struct TextCommandTests {
    @Test(arguments: [
        ("OK", TextCommand.okay), ("ok", .okay), ("Ok!", .okay), (" okay. ", .okay), ("Yes", .okay), ("y", .okay),
        ("I'm OK", .okay), ("i’m fine", .okay), ("OK 👍", .okay),
        ("SAFE", .safe), ("Safe :)", .safe), ("I'm safe", .safe), ("i am safe now", .safe),
        ("1", .number(1)), (" 1 ", .number(1)), ("1.", .number(1)), ("2", .number(2)), ("12", .number(12)),
        ("ON IT", .onIt), ("on it!", .onIt), ("Onit", .onIt), ("I'm on it", .onIt), ("on my way", .onIt),
        ("SOS", .sos), ("sos!!", .sos), ("Help me", .sos), ("EMERGENCY", .sos),
        ("STOP", .stop), ("stop", .stop), ("Unsubscribe", .stop), ("cancel", .stop), ("quit.", .stop),
        ("START", .start), ("unstop", .start),
        ("HELP", .help), ("info", .help), ("?", .help),
        ("", .unknown), ("0", .unknown), ("100", .unknown), ("ok thanks bye", .unknown), ("stop it please", .unknown),
        ("not ok", .unknown), ("1 2", .unknown),
    ])
    func readsWhatPeopleType(text: String, command: TextCommand) {
        #expect(TextCommand(text: text) == command)
    }

    @Test func wordsDropApostrophesAndMarks() {
        #expect(TextCommand.words("I'm  on-it!!") == ["IM", "ON", "IT"])
        #expect(TextCommand.words("  ") == [])
    }
}
