import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalLanguage
import NIOCore

/// Twilio's requests to LifeSignal (outside `/v1`, form bodies):
///
/// | route | what Twilio posts | answer |
/// | --- | --- | --- |
/// | `POST /callbacks/twilio` | a message's or call's delivery status | 204 |
/// | `POST /callbacks/twilio/sms` | a text someone sent to LifeSignal's number | TwiML `<Message>` (the reply) |
/// | `POST /callbacks/twilio/voice` | the key pressed during a call (`?step=` for a follow-up question) | TwiML `<Say>`, maybe a `<Gather>` |
/// | `POST /callbacks/twilio/incoming` | a call someone made to LifeSignal's number | TwiML: the menu, or how to sign up |
///
/// Every request must carry an `X-Twilio-Signature` matching the route's public URL
/// (`<public URL><route>`) and the body, made with the configured auth token. Without a
/// configured token nothing is accepted: an unsigned request could mark any delivery failed,
/// check a person in or say "I'm on it" in a responder's name.
///
/// The phone number Twilio names as a text's sender is who sent it: the signature proves the
/// text came through Twilio, and Twilio gives the number the network gave it.
struct TwilioCallbackController {
    let notifications: Notifications
    let replies: Replies
    /// `LIFESIGNAL_TWILIO_AUTH_TOKEN`; nil when Twilio is not configured (every callback is then refused).
    let authToken: String?
    /// The public URL the routes are reached at (Twilio signs the full URL).
    let baseURL: String

    static let path = "/callbacks/twilio"
    static let smsPath = "/callbacks/twilio/sms"
    static let voicePath = "/callbacks/twilio/voice"
    static let incomingPath = "/callbacks/twilio/incoming"

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.post(RouterPath(Self.path)) { request, _ -> Response in
            let body = try await signedBody(request, path: Self.path)
            // An unknown status or a callback without a SID is acknowledged and ignored, so
            // Twilio does not retry it forever.
            if let callback = TwilioStatusCallback(formBody: body) {
                try await notifications.recordProviderStatus(
                    providerID: callback.providerID, status: callback.status,
                    reason: callback.reason.map { reason in callback.errorCode.map { "\(reason) (error \($0))" } ?? reason },
                    unanswered: ["busy", "no-answer"].contains(callback.providerStatus))
            }
            return Response(status: .noContent)
        }

        router.post(RouterPath(Self.smsPath)) { request, _ -> Response in
            let form = FormURLEncoding.decode(try await signedBody(request, path: Self.smsPath))
            guard let from = Self.value("From", in: form),
                let messageID = Self.value("MessageSid", in: form) ?? Self.value("SmsSid", in: form)
            else {
                throw ServiceError(.invalid, code: .invalidCallback, "A text needs From and MessageSid.")
            }
            let reply = try await replies.receiveText(
                from: from, body: Self.value("Body", in: form) ?? "", messageID: messageID)
            // Nothing to say (the help text went out within the hour): an empty answer.
            return Self.twiml(reply.map { "<Message>\(TwilioChannel.xmlEscape($0))</Message>" } ?? "")
        }

        router.post(RouterPath(Self.voicePath)) { request, _ -> Response in
            let form = FormURLEncoding.decode(try await signedBody(request, path: Self.voicePath))
            guard let callID = Self.value("CallSid", in: form) else {
                throw ServiceError(.invalid, code: .invalidCallback, "A key press needs CallSid.")
            }
            // Said in the called person's language, by the voice that read the call. A question
            // ("Press 9 again…") waits for the next key, posted back here with its step.
            let step = request.uri.queryParameters.get("step").flatMap(KeypressStep.init(rawValue:))
            let reply = try await replies.keypressReply(
                callID: callID, digits: Self.value("Digits", in: form) ?? "", step: step, from: Self.value("From", in: form))
            return answer(reply)
        }

        router.post(RouterPath(Self.incomingPath)) { request, _ -> Response in
            let form = FormURLEncoding.decode(try await signedBody(request, path: Self.incomingPath))
            guard let callID = Self.value("CallSid", in: form), let from = Self.value("From", in: form) else {
                throw ServiceError(.invalid, code: .invalidCallback, "A call needs CallSid and From.")
            }
            return answer(try await replies.receiveCall(from: from, callID: callID))
        }
    }

    /// What a call says: the answer's words, then its question inside a `<Gather>` whose key
    /// comes back to the keypress route with the question's step (said twice, then goodbye).
    private func answer(_ reply: KeypressAnswer) -> Response {
        let said = reply.text.isEmpty ? "" : TwilioChannel.say(reply.text, language: reply.language, voice: nil)
        guard let ask = reply.ask else { return Self.twiml(said) }
        let action = baseURL + Self.voicePath + (reply.then.map { "?step=\($0.rawValue)" } ?? "")
        return Self.twiml(
            said
                + TwilioChannel.gather(
                    [ask, ask], language: reply.language, voice: nil, action: action, then: Words(reply.language)("call.goodbye"),
                    digits: reply.digits))
    }

    /// The request's form body, once its signature is checked against `path`'s public URL and
    /// the request's query (Twilio signs the whole URL; a status callback's names its delivery).
    private func signedBody(_ request: Request, path: String) async throws -> String {
        let body = String(buffer: try await request.body.collect(upTo: 64 * 1024))
        let query = request.uri.query.map { "?\($0)" } ?? ""
        guard let authToken, let signature = request.headers[HTTPField.Name(TwilioSignature.headerName)!],
            TwilioSignature.isValid(signature: signature, url: baseURL + path + query, formBody: body, authToken: authToken)
        else {
            throw ServiceError(.forbidden, code: .badSignature, "The Twilio signature is not valid.")
        }
        return body
    }

    private static func value(_ name: String, in form: [(String, String)]) -> String? {
        form.first { $0.0 == name }.map(\.1).flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func twiml(_ verbs: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/xml; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: #"<?xml version="1.0" encoding="UTF-8"?><Response>"# + verbs + "</Response>")))
    }
}
