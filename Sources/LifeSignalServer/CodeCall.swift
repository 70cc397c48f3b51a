import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalDelivery
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

    /// The TwiML for a call reading `code`.
    public func twiml(code: String, now: Date) -> String {
        twiml(code: code, token: token(code: code, until: now.addingTimeInterval(Self.replayFor)))
    }

    func twiml(code: String, token: String) -> String {
        let digits = code.map { #"<Say>\#($0).</Say><Pause length="1"/>"# }.joined()
        return #"<?xml version="1.0" encoding="UTF-8"?><Response>"#
            + #"<Gather numDigits="1" timeout="8" method="POST" action="\#(TwilioChannel.xmlEscape(url + "?t=" + token))">"#
            + #"<Say>This is LifeSignal. Your code is:</Say><Pause length="1"/>"# + digits
            + #"<Say>Press any key to hear your code again.</Say></Gather><Say>Goodbye.</Say></Response>"#
    }

    static let expired =
        #"<?xml version="1.0" encoding="UTF-8"?><Response><Say>This code can no longer be repeated. Please ask for a new one.</Say></Response>"#

    func token(code: String, until: Date) -> String {
        let plain = Data("\(code):\(Int64(until.timeIntervalSince1970))".utf8)
        // AES-GCM with a random nonce cannot fail for a 32-byte key.
        let sealed = try! AES.GCM.seal(plain, using: key).combined!
        return sealed.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The code sealed in `token`, when it is genuine and still replayable at `now`.
    public func code(token: String, now: Date) -> String? {
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard token.count < 200, let data = Data(base64Encoded: base64), let box = try? AES.GCM.SealedBox(combined: data),
            let plain = try? AES.GCM.open(box, using: key), let text = String(data: plain, encoding: .utf8)
        else { return nil }
        let parts = text.split(separator: ":")
        guard parts.count == 2, let until = Int64(parts[1]), Double(until) > now.timeIntervalSince1970 else { return nil }
        return String(parts[0])
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
            let twiml = codeCall.code(token: token, now: now()).map { codeCall.twiml(code: $0, token: token) } ?? CodeCall.expired
            return Response(
                status: .ok, headers: [.contentType: "text/xml; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: twiml)))
        }
    }
}
