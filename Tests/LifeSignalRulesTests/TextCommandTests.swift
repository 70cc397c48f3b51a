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
        ("CALL ME", .callMe), ("call me!", .callMe), ("Please call me", .callMe), ("callme", .callMe),
        ("", .unknown), ("0", .unknown), ("100", .unknown), ("ok thanks bye", .unknown), ("stop it please", .unknown),
        ("not ok", .unknown), ("1 2", .unknown),
    ])
    func readsWhatPeopleType(text: String, command: TextCommand) {
        #expect(TextCommand(text: text) == command)
    }

    /// The same commands in German, Spanish, French and Arabic, typed with or without accents.
    @Test(arguments: [
        ("JA", TextCommand.okay), ("ja!", .okay), ("Sí", .okay), ("si", .okay), ("OUI", .okay), ("ça va", .okay),
        ("Mir geht's gut", .okay), ("estoy bien", .okay), ("نعم", .okay), ("أنا بخير", .okay), ("انا بخير", .okay),
        ("sicher", .safe), ("Ich bin in Sicherheit", .safe), ("a salvo", .safe), ("En sécurité", .safe),
        ("en securite", .safe), ("بأمان", .safe),
        ("Komme", .onIt), ("ich kümmere mich", .onIt), ("voy", .onIt), ("Me encargo", .onIt), ("J'y vais", .onIt),
        ("Je m’en occupe", .onIt), ("قادم", .onIt),
        ("Hilfe", .sos), ("NOTFALL", .sos), ("ayuda", .sos), ("Au secours", .sos), ("à l'aide", .sos), ("ساعدني", .sos),
        ("STOPP", .stop), ("Baja", .stop), ("arrêt", .stop), ("ARRET", .stop), ("توقف", .stop),
        ("anmelden", .start), ("ALTA", .start),
        ("RUF MICH AN", .callMe), ("Ruf mich an!", .callMe), ("LLÁMAME", .callMe), ("llamame", .callMe),
        ("APPELEZ-MOI", .callMe), ("appelez moi", .callMe), ("اتصل بي", .callMe), ("إتصل بي", .callMe),
        ("nein", .unknown), ("no estoy bien", .unknown), ("ça va pas", .unknown),
    ])
    func readsEachShippedLanguage(text: String, command: TextCommand) {
        #expect(TextCommand(text: text) == command)
    }

    @Test func wordsDropApostrophesAndMarks() {
        #expect(TextCommand.words("Sí, ÇA va") == ["SI", "CA", "VA"])
        #expect(TextCommand.words("I'm  on-it!!") == ["IM", "ON", "IT"])
        #expect(TextCommand.words("  ") == [])
    }
}
