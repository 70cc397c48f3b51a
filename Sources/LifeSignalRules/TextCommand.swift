import Foundation

/// What a text sent to LifeSignal's number asks for. People type on small keypads, in any case,
/// with punctuation and emoji: "ok!", "Yes.", " 1 ", "On it 👍" all read.
public enum TextCommand: Sendable, Hashable {
    /// "OK", "YES", "Y", "OKAY", "I'M OK", "FINE": I'm OK.
    case okay
    /// "SAFE", "I'M SAFE": I'm OK, and with an SOS open, end it (after a confirming second
    /// SAFE, as raising one needs a second SOS).
    case safe
    /// A single number ("1", "2"): I'm OK to a reminder, or which alert I'm on when I watch
    /// over someone in trouble.
    case number(Int)
    /// "ON IT", "ONIT", "COMING": I'm on it (the only open alert, or ask which).
    case onIt
    /// "CALL ME", "RUF MICH AN", "LLÁMAME", "APPELEZ-MOI", "اتصل بي": I'm OK, but please call me
    /// today (her responders are told quietly, once a day).
    case callMe
    /// "DETAILS": a responder asks for the sealed details of the person whose alert is open.
    case details
    /// "BACK", "I'M BACK": she is back from her plan (ends it, and checks her in).
    case back
    /// "LATER 1H", "LATER 30", "LATER 2 HOURS": more time for her plan, in minutes (60 when
    /// no time is given); nil minutes when the time cannot be read.
    case later(minutes: Int?)
    /// "SOS", "HELP ME", "EMERGENCY": raise an alert (after a confirming second SOS).
    case sos
    /// Carrier opt-out words: no more texts to this number.
    case stop
    /// Carrier opt-in words: texts again.
    case start
    /// "HELP", "INFO": what can be texted.
    case help
    /// Anything else.
    case unknown

    /// The carrier opt-out keywords (CTIA; Twilio's defaults), and the words for "stop" in
    /// each shipped language (no carrier acts on those, but LifeSignal does: no more texts).
    public static let stopWords: Set<String> = normalised([
        "STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "OPTOUT", "REVOKE",
        "STOPP", "ABMELDEN", "PARAR", "BAJA", "ARRÊT", "ARRÊTER", "توقف", "إيقاف", "ايقاف",
    ])
    /// The carrier opt-in keywords ("YES" is one only for a number that said STOP).
    public static let startWords: Set<String> = normalised(["START", "UNSTOP", "SUBSCRIBE", "ANMELDEN", "ALTA", "ابدأ"])
    static let okayWords: Set<String> = normalised([
        "OK", "OKAY", "OKAYY", "OKK", "K", "YES", "Y", "YEP", "YEAH", "IM OK", "I AM OK", "IM FINE", "I AM FINE", "FINE", "ALL GOOD",
        "GOOD",
        // German, Spanish, French, Arabic: yes, fine, all good.
        "JA", "GUT", "ALLES GUT", "MIR GEHT ES GUT", "MIR GEHTS GUT", "ALLES OK",
        "SÍ", "SI", "BIEN", "ESTOY BIEN", "TODO BIEN", "VALE",
        "OUI", "ÇA VA", "ÇA VA BIEN", "JE VAIS BIEN", "TOUT VA BIEN",
        // Arabic is often typed without its hamza: both spellings.
        "نعم", "بخير", "أنا بخير", "انا بخير", "تمام",
    ])
    static let safeWords: Set<String> = normalised([
        "SAFE", "IM SAFE", "I AM SAFE", "SAFE NOW", "IM SAFE NOW", "I AM SAFE NOW", "SAFE SAFE",
        "SICHER", "IN SICHERHEIT", "ICH BIN IN SICHERHEIT", "ICH BIN SICHER",
        "A SALVO", "ESTOY A SALVO", "SEGURO", "SEGURA", "ESTOY SEGURO", "ESTOY SEGURA",
        "EN SÉCURITÉ", "JE SUIS EN SÉCURITÉ",
        "بأمان", "أنا بأمان", "انا بأمان", "بامان",
    ])
    static let onItWords: Set<String> = normalised([
        "ON IT", "ONIT", "IM ON IT", "I AM ON IT", "COMING", "ON MY WAY", "OMW",
        "KOMME", "ICH KOMME", "ICH KÜMMERE MICH", "UNTERWEGS",
        "VOY", "ME ENCARGO", "YA VOY", "VOY EN CAMINO",
        "J'Y VAIS", "J'ARRIVE", "JE M'EN OCCUPE",
        "قادم", "أنا قادم", "انا قادم", "سأتولى الأمر", "ساتولى الامر",
    ])
    static let sosWords: Set<String> = normalised([
        "SOS", "HELP ME", "EMERGENCY", "SOS SOS",
        // In these languages the word for help is a cry for it (English HELP is the carrier's
        // info keyword); an SOS still waits for a second one.
        "HILFE", "NOTFALL", "AYUDA", "SOCORRO", "EMERGENCIA", "AIDE", "À L'AIDE", "AU SECOURS", "URGENCE",
        "النجدة", "النجده", "ساعدني", "طوارئ", "طوارىء",
    ])
    static let callMeWords: Set<String> = normalised([
        "CALL ME", "CALLME", "PLEASE CALL ME", "CALL ME PLEASE", "CALL ME TODAY", "OK CALL ME", "OK BUT CALL ME",
        "RUF MICH AN", "RUFT MICH AN", "BITTE RUF MICH AN", "BITTE ANRUFEN", "RUFEN SIE MICH AN",
        "LLÁMAME", "LLÁMENME", "LLÁMEME", "LLÁMAME HOY", "LLÁMAME POR FAVOR",
        "APPELEZ-MOI", "APPELLE-MOI", "APPELEZ MOI", "APPELEZ-MOI AUJOURD'HUI", "RAPPELEZ-MOI",
        // Arabic, with and without its hamza and the plural "call me" (all of you).
        "اتصل بي", "اتصلوا بي", "إتصل بي", "اتصل بي اليوم",
    ])
    static let backWords: Set<String> = normalised([
        "BACK", "IM BACK", "I AM BACK", "BACK HOME", "IM HOME", "I AM HOME", "HOME SAFE",
        "ZURÜCK", "ICH BIN ZURÜCK", "WIEDER DA", "ICH BIN WIEDER DA",
        "DE VUELTA", "ESTOY DE VUELTA", "YA VOLVÍ", "VOLVÍ", "YA ESTOY EN CASA",
        "DE RETOUR", "JE SUIS DE RETOUR", "RENTRÉ", "RENTRÉE", "JE SUIS RENTRÉ", "JE SUIS RENTRÉE",
        "عدت", "لقد عدت", "رجعت",
    ])
    /// The first word(s) of a request for more time; the rest is how much.
    static let laterWords: [[String]] = [["LATER"], ["SPATER"], ["MAS", "TARDE"], ["PLUS", "TARD"]]

    /// "1H", "30", "2 HOURS", "90 MIN", "1 H 30": minutes, or nil when it cannot be read.
    static func minutes(_ words: [String]) -> Int? {
        guard !words.isEmpty else { return 60 }
        var total = 0
        var index = 0
        var read = false
        while index < words.count {
            var word = words[index]
            var number = 0
            let digits = word.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 4, let value = Int(digits) else { return nil }
            number = value
            word = String(word.dropFirst(digits.count))
            if word.isEmpty, index + 1 < words.count, !(words[index + 1].first?.isNumber ?? true) {
                index += 1
                word = words[index]
            }
            switch word {
            case "", "M", "MIN", "MINS", "MINUTE", "MINUTES", "MINUTEN", "MINUTOS":
                total += number
            case "H", "HR", "HRS", "HOUR", "HOURS", "STUNDE", "STUNDEN", "HORA", "HORAS", "HEURE", "HEURES":
                total += number * 60
            default: return nil
            }
            read = true
            index += 1
        }
        return read ? total : nil
    }

    static let helpWords: Set<String> = normalised(["HELP", "INFO", "?"])
    static let detailsWords: Set<String> = normalised([
        "DETAILS", "DETAIL", "SEALED", "SEALED DETAILS", "ANGABEN", "DETALLES", "DATOS", "DÉTAILS", "التفاصيل", "تفاصيل",
    ])

    /// Word lists written as people write them, read the way texts are read.
    static func normalised(_ phrases: [String]) -> Set<String> {
        Set(phrases.map { words($0).joined(separator: " ") }.filter { !$0.isEmpty })
    }

    /// Reads a text: letters and digits only, upper-cased, words separated by single spaces.
    public init(text: String) {
        let words = Self.words(text)
        let joined = words.joined(separator: " ")
        if text.trimmingCharacters(in: .whitespacesAndNewlines) == "?" {
            self = .help
        } else if words.count == 1, let number = Int(words[0]), (1...99).contains(number), words[0].count <= 2 {
            self = .number(number)
        } else if Self.stopWords.contains(joined) {
            self = .stop
        } else if Self.startWords.contains(joined) {
            self = .start
        } else if Self.okayWords.contains(joined) {
            self = .okay
        } else if Self.safeWords.contains(joined) {
            self = .safe
        } else if Self.onItWords.contains(joined) {
            self = .onIt
        } else if Self.callMeWords.contains(joined) {
            self = .callMe
        } else if Self.backWords.contains(joined) {
            self = .back
        } else if let lead = Self.laterWords.first(where: { words.starts(with: $0) }) {
            self = .later(minutes: Self.minutes(Array(words.dropFirst(lead.count))))
        } else if Self.sosWords.contains(joined) {
            self = .sos
        } else if Self.helpWords.contains(joined) {
            self = .help
        } else if Self.detailsWords.contains(joined) {
            self = .details
        } else {
            self = .unknown
        }
    }

    /// The words of a text, with apostrophes dropped ("I'm" is "IM"), accents folded ("SÍ" is
    /// "SI", "ÇA" is "CA", Arabic's hamza and marks fold too) and every other mark a space.
    /// Letters of any script stay.
    public static func words(_ text: String) -> [String] {
        var cleaned = ""
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil).uppercased()
        for scalar in folded.unicodeScalars {
            if scalar == "'" || scalar == "’" { continue }
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                cleaned.unicodeScalars.append(scalar)
            } else {
                cleaned.append(" ")
            }
        }
        return cleaned.split(separator: " ").map(String.init)
    }
}

/// A text that acts only when sent twice (`SOS` raises an alert, `SAFE` ends one): the first
/// opens a window, a different message inside it confirms, and the same message delivered
/// again (or replayed) is never its own confirmation.
public enum TextConfirmation {
    public enum Step: Hashable, Sendable {
        /// This is the second text: act.
        case confirmed
        /// The first text: keep the window open until then, asked by this message.
        case opened(until: Date)
        /// The window is open and this is the text that opened it: nothing changes.
        case waiting
    }

    public static func step(pendingUntil: Date?, askedBy: String?, messageID: String, now: Date, window: TimeInterval) -> Step {
        guard let pendingUntil, pendingUntil > now else { return .opened(until: now.addingTimeInterval(window)) }
        guard let askedBy, askedBy != messageID else { return .waiting }
        return .confirmed
    }
}
