import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalLanguage
import NIOCore

/// The call that reads a sign-in code to a landline: the code slowly, digit by digit, then
/// "press any key to hear your code again". The key press makes Twilio post to
/// `POST /callbacks/twilio/code-call?t=…`, which answers with the same TwiML: a loop.
///
/// The server keeps nothing per call: the code travels inside `t`, sealed (AES-GCM, with a
/// key derived from the Twilio auth token) together with the time it stops being replayed,
/// so neither a proxy's access log nor anyone without the key can read it, and only
/// requests signed by Twilio are answered.
public struct CodeCall: Sendable {
    public static let path = "/callbacks/twilio/code-call"
    /// How long a call can go on replaying its code.
    public static let replayFor: TimeInterval = 600

    let key: SymmetricKey
    let authToken: String
    /// The replay route's full URL, which Twilio signs.
    public let url: String

    public init(authToken: String, publicBaseURL: String) {
        self.authToken = authToken
        key = SymmetricKey(data: SHA256.hash(data: Data("lifesignal code call\0\(authToken)".utf8)))
        url = (publicBaseURL.hasSuffix("/") ? String(publicBaseURL.dropLast()) : publicBaseURL) + Self.path
    }

    /// The TwiML for a call reading `code`, in `language` (by its voice: English for a
    /// language without one). The key press replays it in the same language.
    public func twiml(code: String, now: Date, language: Language = .english) -> String {
        let spoken = Self.spoken(language)
        return twiml(
            code: code, token: token(code: code, until: now.addingTimeInterval(Self.replayFor), language: spoken), language: spoken)
    }

    func twiml(code: String, token: String, language: Language = .english) -> String {
        let words = Words(language)
        func say(_ text: String) -> String { TwilioChannel.say(text, language: language, voice: nil) }
        let digits = code.map { say("\($0).") + #"<Pause length="1"/>"# }.joined()
        return #"<?xml version="1.0" encoding="UTF-8"?><Response>"#
            + #"<Gather numDigits="1" timeout="8" method="POST" action="\#(TwilioChannel.xmlEscape(url + "?t=" + token))">"#
            + say(words("code.call.intro")) + #"<Pause length="1"/>"# + digits
            + say(words("code.call.again")) + "</Gather>" + say(words("call.bye")) + "</Response>"
    }

    /// What a key press says once the code can no longer be replayed.
    static func expired(_ language: Language = .english) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><Response>"#
            + TwilioChannel.say(Words(language)("code.call.expired"), language: language, voice: nil) + "</Response>"
    }

    /// The language a call is read in: the reader's when a voice speaks it, else English.
    public static func spoken(_ language: Language) -> Language {
        let rendered = Words(language).rendered
        return CallVoice.choose(for: rendered, english: nil).known ? rendered : .english
    }

    func token(code: String, until: Date, language: Language = .english) -> String {
        let plain = Data("\(code):\(Int64(until.timeIntervalSince1970)):\(language.tag)".utf8)
        // AES-GCM with a random nonce cannot fail for a 32-byte key.
        let sealed = try! AES.GCM.seal(plain, using: key).combined!
        return sealed.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The code sealed in `token`, when it is genuine and still replayable at `now`.
    public func code(token: String, now: Date) -> String? {
        sealed(token: token, now: now)?.code
    }

    /// The code and the call's language sealed in `token` (English in a token sealed before
    /// calls had one), when it is genuine and still replayable at `now`.
    public func sealed(token: String, now: Date) -> (code: String, language: Language)? {
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard token.count < 200, let data = Data(base64Encoded: base64), let box = try? AES.GCM.SealedBox(combined: data),
            let plain = try? AES.GCM.open(box, using: key), let text = String(data: plain, encoding: .utf8)
        else { return nil }
        let parts = text.split(separator: ":")
        guard (2...3).contains(parts.count), let until = Int64(parts[1]), Double(until) > now.timeIntervalSince1970 else { return nil }
        let language = parts.count == 3 ? Language(String(parts[2])) ?? .english : .english
        return (String(parts[0]), language)
    }
}

/// `POST /callbacks/twilio/code-call?t=…`: replays a code call (see `CodeCall`).
struct CodeCallController {
    let codeCall: CodeCall
    let now: @Sendable () -> Date

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.post(RouterPath(CodeCall.path)) { request, _ -> Response in
            let body = String(buffer: try await request.body.collect(upTo: 64 * 1024))
            let token = request.uri.queryParameters.get("t") ?? ""
            guard let signature = request.headers[HTTPField.Name(TwilioSignature.headerName)!],
                TwilioSignature.isValid(
                    signature: signature, url: codeCall.url + "?t=" + token, formBody: body, authToken: codeCall.authToken)
            else {
                throw ServiceError(.forbidden, code: .badSignature, "The Twilio signature is not valid.")
            }
            // An expired token's language cannot be read (it is not opened): English.
            let twiml =
                codeCall.sealed(token: token, now: now()).map { codeCall.twiml(code: $0.code, token: token, language: $0.language) }
                ?? CodeCall.expired()
            return Response(
                status: .ok, headers: [.contentType: "text/xml; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: twiml)))
        }
    }
}
