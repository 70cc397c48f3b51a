import Foundation
import Hummingbird
import LifeSignalTestSupport
import Logging
import NIOCore
import Synchronization

/// A Twilio look-alike on 127.0.0.1 (the same answers as the delivery tests' fake): checks
/// basic auth, records each form, refuses some numbers the way Twilio does, and gives each
/// accepted message or call its own SID (`SM…0001`, `CA…0002`, …).
///
/// - `+15550000400`: texts refused permanently (error 21614, a landline); calls go through.
/// - `+15550000503`: everything refused with 503 while `outage` is on.
final class FakeTwilio: Sendable {
    static let accountSID = "AC0123456789abcdef0123456789abcdef"
    static let authToken = "tw-token-0123456789a1b2"
    static let from = "+15557654321"
    static let landline = "+15550000400"
    static let troubled = "+15550000503"

    struct Received: Sendable {
        var resource: String
        var form: [String: String]
        /// The SID it was given; nil when refused.
        var sid: String? = nil
    }

    private let received = Mutex<[Received]>([])
    /// How many messages and calls it accepted: each gets its own SID, as on Twilio.
    private let accepted = Mutex(0)
    let outage = Mutex(true)

    var requests: [Received] { received.withLock { $0 } }

    var router: Router<BasicRequestContext> {
        let router = Router()
        let expectedAuth = "Basic " + Data("\(Self.accountSID):\(Self.authToken)".utf8).base64EncodedString()
        router.post("2010-04-01/Accounts/:account/:resource") { request, context -> Response in
            let body = String(buffer: try await request.body.collect(upTo: 1 << 20))
            let resource = context.parameters.get("resource") ?? ""
            let form = Self.decodeForm(body)
            let index = self.received.withLock { received in
                received.append(Received(resource: resource, form: form))
                return received.count - 1
            }
            guard request.headers[.authorization] == expectedAuth else {
                return Self.json(.unauthorized, #"{"code":20003,"message":"Authenticate","status":401}"#)
            }
            if form["To"] == Self.landline && resource == "Messages.json" {
                return Self.json(.badRequest, #"{"code":21614,"message":"'To' number is not a valid mobile number","status":400}"#)
            }
            if form["To"] == Self.troubled && self.outage.withLock({ $0 }) {
                return Self.json(.serviceUnavailable, #"{"code":20503,"message":"Service unavailable","status":503}"#)
            }
            let number = self.accepted.withLock { count in
                count += 1
                return count
            }
            let sid = (resource == "Calls.json" ? "CA" : "SM") + String(format: "%032d", number)
            self.received.withLock { $0[index].sid = sid }
            return Self.json(.created, #"{"sid":"\#(sid)","status":"queued"}"#)
        }
        return router
    }

    static func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func decodeForm(_ body: String) -> [String: String] { FormBody.decode(body) }

    /// Runs the fake for the length of `body`, which gets its base URL.
    func run<R: Sendable>(_ body: (_ baseURL: String) async throws -> R) async throws -> R {
        try await withLocalServer(router, label: "fake-twilio") { port in try await body("http://127.0.0.1:\(port)") }
    }

    struct FakeTwilioError: Error {}
}
