import AsyncHTTPClient
import Foundation
import LifeSignalLanguage
import LifeSignalModels
import Logging
import NIOCore

/// SMS and voice calls through Twilio's REST API (or anything that speaks it).
///
/// One type serves both channels: `TwilioChannel(.sms, …)` posts to `Messages.json`,
/// `TwilioChannel(.voice, …)` to `Calls.json` with TwiML that reads the message aloud. The
/// address is a phone number in E.164 (`+15551234567`; spaces, dashes and brackets are ignored).
/// Success is `.sent` with the message or call SID as provider id; Twilio reports the rest
/// through the status callback (``TwilioStatusCallback``).
public struct TwilioChannel: ChannelAdapter {
    /// Which Twilio product to use.
    public enum Mode: Sendable, Hashable {
        case sms, voice
    }

    /// Settings read once at start.
    public struct Configuration: Sendable {
        /// `https://api.twilio.com` in production; a fake in tests.
        public var baseURL: String
        /// The account SID (`AC…`), also the basic-auth user unless ``apiKeySID`` is set.
        public var accountSID: String
        /// The auth token (or API key secret); also signs status callbacks.
        public var authToken: String
        /// An API key SID (`SK…`) to authenticate with instead of the account SID.
        public var apiKeySID: String?
        /// The number (or messaging service's number) messages and calls come from.
        public var from: String
        /// Where Twilio posts delivery status; `nil` sends none.
        public var statusCallbackURL: String?
        /// Where Twilio posts the key pressed during a reminder or alert call (`<Gather>`);
        /// `nil` makes calls that only read their message.
        public var keypressCallbackURL: String?
        /// The `<Say>` voice for calls, e.g. `Polly.Joanna`; `nil` is Twilio's default.
        public var voice: String?
        public var timeout: Duration

        public init(
            baseURL: String = "https://api.twilio.com", accountSID: String, authToken: String,
            apiKeySID: String? = nil, from: String, statusCallbackURL: String? = nil,
            keypressCallbackURL: String? = nil, voice: String? = nil, timeout: Duration = .seconds(15)
        ) {
            self.baseURL = baseURL
            self.accountSID = accountSID
            self.authToken = authToken
            self.apiKeySID = apiKeySID
            self.from = from
            self.statusCallbackURL = statusCallbackURL
            self.keypressCallbackURL = keypressCallbackURL
            self.voice = voice
            self.timeout = timeout
        }
    }

    public let mode: Mode
    public var kind: ChannelKind { mode == .sms ? .sms : .voice }
    private let configuration: Configuration
    private let http: HTTPDelivery
    private let logger: Logger

    public init(
        _ mode: Mode, configuration: Configuration, httpClient: HTTPClient,
        logger: Logger = Logger(label: "lifesignal.delivery.twilio")
    ) {
        self.mode = mode
        self.configuration = configuration
        self.logger = logger
        self.http = HTTPDelivery(
            client: httpClient, timeout: configuration.timeout, providerName: Self.providerName(mode),
            logger: logger)
    }

    /// The status callback URL with the delivery id as its `delivery` query parameter (the
    /// callback route checks Twilio's signature over the whole URL, query included).
    public static func callbackURL(_ base: String, deliveryID: DeliveryID?) -> String {
        guard let deliveryID else { return base }
        return base + (base.contains("?") ? "&" : "?") + "delivery=\(deliveryID)"
    }

    static func providerName(_ mode: Mode) -> String {
        mode == .sms ? "The SMS provider" : "The voice call provider"
    }

    public func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
        // An earlier attempt was handed over and never answered: if Twilio has that text, it
        // is not sent again. (Calls cannot be matched to a delivery in Twilio's call list:
        // they are placed again and recorded as possibly twice.)
        if mode == .sms, let since = message.inDoubtSince,
            let sid = await earlierCopy(of: Self.smsText(message), to: message.address, since: since)
        {
            return .foundAtProvider(providerID: sid)
        }
        if mode == .voice, let tag = message.language, let language = Language(tag),
            !CallVoice.choose(for: Words(language).rendered, english: configuration.voice).known
        {
            logger.notice(
                "No call voice for this language; the call is read in English",
                metadata: ["language": "\(tag)", "delivery": "\(message.deliveryID)"])
        }
        let content: Content =
            mode == .sms
            ? .text(Self.smsText(message))
            : .twiml(Self.twiml(message, voice: configuration.voice, keypressURL: configuration.keypressCallbackURL))
        return .sent(
            providerID: try await send(content, to: message.address, statusCallback: true, deliveryID: message.deliveryID))
    }

    /// What a text says, or what a call runs.
    public enum Content: Sendable, Hashable {
        case text(String)
        case twiml(String)
    }

    /// Sends `content` to `address` (a text in `.sms` mode, a call in `.voice` mode) and returns
    /// the provider's SID. Messages outside the outbox (sign-in codes) pass `statusCallback: false`.
    /// An outbox message's status callback URL carries its `deliveryID` (see ``callbackURL(_:deliveryID:)``),
    /// so the provider's own records say which delivery each text or call was, and a copy sent
    /// twice after a crash can be told apart.
    public func send(
        _ content: Content, to address: String, statusCallback: Bool, deliveryID: DeliveryID? = nil
    ) async throws(DeliveryFailure) -> String {
        guard let to = Self.e164(address) else {
            throw .permanent("The phone number is not in international format.")
        }
        var form: [(String, String)] = [("To", to), ("From", configuration.from)]
        let resource: String
        switch content {
        case .text(let text):
            resource = "Messages.json"
            form.append(("Body", text))
        case .twiml(let twiml):
            resource = "Calls.json"
            form.append(("Twiml", twiml))
        }
        if statusCallback, let callback = configuration.statusCallbackURL {
            form.append(("StatusCallback", Self.callbackURL(callback, deliveryID: deliveryID)))
            if mode == .voice {
                for event in ["initiated", "ringing", "answered", "completed"] {
                    form.append(("StatusCallbackEvent", event))
                }
            }
        }

        var request = HTTPClientRequest(url: resourceURL(resource))
        request.method = .POST
        request.headers.add(name: "Authorization", value: authorization)
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        request.body = .bytes(ByteBuffer(string: FormURLEncoding.encode(form)))

        let response = try await http.execute(request)
        let name = Self.providerName(mode)
        if let failure = HTTPDelivery.classify(status: response.status, providerName: name) {
            logger.warning(
                "Twilio refused a \(mode == .sms ? "message" : "call")",
                metadata: ["status": "\(response.status)", "body": "\(response.bodyString.prefix(500))"])
            if !failure.isTransient, let error = response.json(TwilioError.self), let code = error.code,
                let reason = Self.reasons[code]
            {
                throw .permanent(reason)
            }
            throw failure
        }
        guard let sid = response.json(TwilioResource.self)?.sid else {
            throw .transient("\(name) gave an answer that could not be read.")
        }
        return sid
    }

    /// The SID of a text with exactly this body, to this number from ours, created since `since`
    /// (less a margin for clocks that disagree) and not failed — the copy an earlier attempt
    /// handed over. Looks at the newest page of Twilio's message list for the number
    /// (`GET …/Messages.json?To=…&From=…`); nil when there is none, or when Twilio cannot be
    /// asked (the text is then sent again and recorded as possibly twice).
    func earlierCopy(of text: String, to address: String, since: Date) async -> String? {
        guard let to = Self.e164(address) else { return nil }
        let query = FormURLEncoding.encode([("To", to), ("From", configuration.from), ("PageSize", "50")])
        var request = HTTPClientRequest(url: "\(resourceURL("Messages.json"))?\(query)")
        request.method = .GET
        request.headers.add(name: "Authorization", value: authorization)
        request.headers.add(name: "Accept", value: "application/json")
        let response: HTTPDelivery.Response
        do { response = try await http.execute(request) } catch {
            logger.warning("Could not ask Twilio whether an interrupted text was sent", metadata: ["error": "\(error)"])
            return nil
        }
        guard response.status == 200, let list = response.json(TwilioMessageList.self) else {
            logger.warning("Could not read Twilio's message list", metadata: ["status": "\(response.status)"])
            return nil
        }
        let earliest = since.addingTimeInterval(-Self.clockMargin)
        return list.messages.first { message in
            message.body == text && !Self.failedStatuses.contains(message.status ?? "")
                && (message.dateCreated.flatMap(Self.rfc2822) ?? .distantPast) >= earliest
        }?.sid
    }

    /// How far Twilio's clock and ours may disagree when matching an earlier copy by time.
    static let clockMargin: TimeInterval = 600
    /// Statuses of a text that never reached anyone.
    static let failedStatuses: Set<String> = ["failed", "undelivered", "canceled"]

    /// Twilio's dates: `Wed, 18 Aug 2010 20:01:40 +0000`.
    public static func rfc2822(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.date(from: text)
    }

    private var authorization: String {
        let user = configuration.apiKeySID ?? configuration.accountSID
        return "Basic " + Data("\(user):\(configuration.authToken)".utf8).base64EncodedString()
    }

    private func resourceURL(_ resource: String) -> String {
        let base = configuration.baseURL.hasSuffix("/") ? String(configuration.baseURL.dropLast()) : configuration.baseURL
        return "\(base)/2010-04-01/Accounts/\(FormURLEncoding.escape(configuration.accountSID))/\(resource)"
    }

    /// Twilio error codes worth their own sentence.
    static let reasons: [Int: String] = [
        21211: "The phone number is not valid.",
        21214: "The phone number cannot be reached.",
        21408: "Messages to this country are not enabled.",
        21610: "The recipient has opted out of text messages (STOP).",
        21612: "This number cannot receive text messages from us.",
        21614: "The phone number cannot receive text messages.",
    ]

    /// The number in E.164, or `nil` when it is not one.
    static func e164(_ address: String) -> String? {
        let kept = address.filter { !" -().\u{00A0}".contains($0) }
        guard kept.first == "+", (8...16).contains(kept.count),
            kept.dropFirst().allSatisfy(\.isASCII), kept.dropFirst().allSatisfy(\.isNumber),
            kept.dropFirst().first != "0"
        else { return nil }
        return kept
    }

    /// A text: title, body, link, and for a reminder or an alert how to answer it by text
    /// (the replies come back to the same number, see the server's inbound text route), in
    /// the recipient's language, normalised and kept within three parts (``TextMessage``).
    public static func smsText(_ message: OutgoingMessage) -> String {
        let words = message.words
        return TextMessage.compose(
            title: message.title, body: message.body, link: message.link, hint: replyHint(message.kind, words: words),
            language: words.language)
    }

    /// How a text of this kind can be answered, when it can. The person's own messages carry
    /// her prompts; only a responder's alert asks for "ON IT".
    public static func replyHint(_ kind: LifeSignalModels.Notification.Kind, words: Words = .english) -> String? {
        switch kind {
        case .reminder, .nonResponsive: words("text.reply.checkIn")
        case .planReminder, .planLate: words("text.reply.plan")
        case .alertSent: words("text.reply.safe")
        case .incidentOpened, .manualAlert: words("text.reply.onIt")
        default: nil
        }
    }

    /// What a call asks for after its message, when a key answers it.
    public static func keypressPrompt(_ kind: LifeSignalModels.Notification.Kind, words: Words = .english) -> String? {
        switch kind {
        case .reminder, .nonResponsive: words("call.press.ok")
        case .planReminder, .planLate: words("call.press.plan")
        case .alertSent: words("call.press.safe")
        case .incidentOpened, .manualAlert: words("call.press.onIt")
        case .dailyCallAway: words("call.press.keepCalls")
        default: nil
        }
    }

    /// Reads title and body; urgent calls say it twice, since the first words are often missed.
    /// A reminder, a last call or an alert reads inside a `<Gather>` that posts the key pressed to
    /// `keypressURL` ("Press 1 if you're OK"); the prompt is said twice before the call ends.
    /// Read in the recipient's language by the voice ``CallVoice`` gives it (`voice` is the
    /// English one); a language without a voice is read in English.
    public static func twiml(_ message: OutgoingMessage, voice: String?, keypressURL: String?) -> String {
        let words = message.words
        let chosen = CallVoice.choose(for: words.rendered, english: voice)
        let prompts = chosen.known ? words : Words.english
        let voiceAttribute =
            (chosen.voice.voice.map { #" voice="\#(xmlEscape($0))""# } ?? "")
            + (chosen.voice.language.map { #" language="\#(xmlEscape($0))""# } ?? "")
        func say(_ text: String) -> String { "<Say\(voiceAttribute)>\(xmlEscape(text))</Say>" }
        if message.kind == .dailyCall, let keypressURL {
            // Her daily call: the greeting and the menu, then the menu again, slowly; a key
            // posts to the keypress route, which answers the key (or reads the menu again).
            return Self.head(
                Self.gather(
                    [message.title + " " + message.body, message.body], language: words.rendered, voice: voice, action: keypressURL,
                    then: prompts("call.goodbye")))
        }
        let spoken = say(Self.speakable("\(message.title). \(message.body)"))
        let reading = message.urgent ? spoken + #"<Pause length="1"/>"# + spoken : spoken
        let head = #"<?xml version="1.0" encoding="UTF-8"?><Response>"#
        guard let keypressURL, let prompt = keypressPrompt(message.kind, words: prompts) else {
            return head + reading + "</Response>"
        }
        let gather = #"<Gather numDigits="1" timeout="10" method="POST" action="\#(xmlEscape(keypressURL))">"#
        return head + gather + reading + #"<Pause length="1"/>"# + say(prompt) + #"<Pause length="2"/>"# + say(prompt)
            + "</Gather>" + say(prompts("call.goodbye")) + "</Response>"
    }

    /// A `<Gather>` of one key (or `digits` keys) that reads each of `sayings` in turn (slowly,
    /// with a pause between), posting the keys to `action`; `then` is said when no key came.
    public static func gather(
        _ sayings: [String], language: Language, voice: String?, action: String, then: String, digits: Int = 1
    ) -> String {
        let chosen = CallVoice.choose(for: language, english: voice).voice
        let read = sayings.map { slowly($0, language: language, voice: voice, polly: chosen.voice?.hasPrefix("Polly.") == true) }
        return #"<Gather numDigits="\#(digits)" timeout="10" method="POST" action="\#(xmlEscape(action))">"#
            + read.joined(separator: #"<Pause length="2"/>"#) + "</Gather>" + say(then, language: language, voice: voice)
    }

    /// `text` read at 90 % speed where the voice can (Polly voices read SSML), else as is.
    static func slowly(_ text: String, language: Language, voice: String?, polly: Bool) -> String {
        guard polly else { return say(text, language: language, voice: voice) }
        let chosen = CallVoice.choose(for: language, english: voice).voice
        let attributes =
            (chosen.voice.map { #" voice="\#(xmlEscape($0))""# } ?? "")
            + (chosen.language.map { #" language="\#(xmlEscape($0))""# } ?? "")
        return #"<Say\#(attributes)><prosody rate="90%">\#(xmlEscape(speakable(text)))</prosody></Say>"#
    }

    /// A whole TwiML document around `verbs`.
    public static func head(_ verbs: String) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><Response>"# + verbs + "</Response>"
    }

    /// One `<Say>` of `text` in `language`, read by the voice ``CallVoice`` gives it (`voice` is
    /// the English one): what a call says after a key press, a code call's sentences.
    public static func say(_ text: String, language: Language, voice: String?) -> String {
        let chosen = CallVoice.choose(for: language, english: voice).voice
        let attributes =
            (chosen.voice.map { #" voice="\#(xmlEscape($0))""# } ?? "")
            + (chosen.language.map { #" language="\#(xmlEscape($0))""# } ?? "")
        return "<Say\(attributes)>\(xmlEscape(speakable(text)))</Say>"
    }

    /// Text a voice reads: without emoji ("🆘 Ada needs help" is read "Ada needs help"), which
    /// text-to-speech spells out or mangles.
    public static func speakable(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let pictograph = scalar.value > 0xFF && scalar.properties.isEmoji
            let joiner = scalar.value == 0x200D || (0xFE00...0xFE0F).contains(scalar.value)
            if !pictograph && !joiner { kept.append(scalar) }
        }
        return String(kept).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            .replacingOccurrences(of: " .", with: ".").replacingOccurrences(of: " ,", with: ",")
    }

    public static func xmlEscape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }

    private struct TwilioResource: Decodable { var sid: String }
    private struct TwilioMessageList: Decodable {
        struct Message: Decodable {
            var sid: String
            var body: String?
            var status: String?
            var dateCreated: String?
            enum CodingKeys: String, CodingKey {
                case sid, body, status
                case dateCreated = "date_created"
            }
        }
        var messages: [Message]
    }
    private struct TwilioError: Decodable { var code: Int?; var message: String? }
}
