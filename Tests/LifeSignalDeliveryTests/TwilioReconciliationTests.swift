import LifeSignalTestSupport
import Foundation
import Hummingbird
import LifeSignalDelivery
import LifeSignalModels
import Synchronization
import Testing

/// A text whose earlier attempt was handed to Twilio and never answered (a crash, a dead
/// instance) is looked for in Twilio's message list before it is sent again.
@Suite struct TwilioReconciliationTests {
    /// A Twilio look-alike that keeps what it accepted and lists it like Twilio does (newest
    /// first, RFC 2822 dates), or answers the list with `listStatus` when that is set.
    final class ListingTwilio: Sendable {
        struct Stored: Sendable {
            var sid: String
            var to: String
            var from: String
            var body: String
            var status: String
            var created: Date
        }
        let messages = Mutex<[Stored]>([])
        let posts = Mutex(0)
        let lists = Mutex<[String]>([])
        let listStatus: HTTPResponse.Status?

        init(listStatus: HTTPResponse.Status? = nil) { self.listStatus = listStatus }

        func store(_ message: Stored) { messages.withLock { $0.append(message) } }

        var router: Router<BasicRequestContext> {
            let router = Router()
            router.post("2010-04-01/Accounts/:account/Messages.json") { request, _ -> Response in
                let form = ReceivedRequest(request, body: try await request.body.collect(upTo: 1 << 20)).form
                let sid =
                    "SM"
                    + String(
                        format: "%032d",
                        self.posts.withLock {
                            $0 += 1; return $0 + 100
                        })
                self.store(
                    Stored(
                        sid: sid, to: form["To"] ?? "", from: form["From"] ?? "", body: form["Body"] ?? "", status: "queued",
                        created: Date()))
                return TwilioChannelTests.json(.created, #"{"sid":"\#(sid)","status":"queued"}"#)
            }
            router.get("2010-04-01/Accounts/:account/Messages.json") { request, _ -> Response in
                self.lists.withLock { $0.append(request.uri.query ?? "") }
                if let status = self.listStatus { return TwilioChannelTests.json(status, #"{"code":20500,"status":500}"#) }
                let to = request.uri.queryParameters.get("To") ?? ""
                let from = request.uri.queryParameters.get("From") ?? ""
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(identifier: "UTC")
                formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
                let listed = self.messages.withLock { $0 }.filter { $0.to == to && $0.from == from }.reversed().map {
                    [
                        "sid": $0.sid, "to": $0.to, "from": $0.from, "body": $0.body, "status": $0.status,
                        "date_created": formatter.string(from: $0.created),
                    ]
                }
                let data = try JSONSerialization.data(withJSONObject: ["messages": listed, "page_size": 50])
                return TwilioChannelTests.json(.ok, String(decoding: data, as: UTF8.self))
            }
            return router
        }
    }

    func channel(port: Int) -> TwilioChannel {
        TwilioChannel(
            .sms,
            configuration: .init(
                baseURL: "http://127.0.0.1:\(port)", accountSID: TwilioChannelTests.accountSID, authToken: TwilioChannelTests.authToken,
                from: "+15557654321", statusCallbackURL: "https://lifesignal.example/v1/providers/twilio/status"),
            httpClient: .shared)
    }

    static func inDoubt(since: Date) -> OutgoingMessage {
        var message = OutgoingMessage.fixture(channel: .sms, address: "+15551234567")
        message.inDoubtSince = since
        return message
    }

    @Test func aTextTwilioAlreadyHasIsNotSentAgain() async throws {
        let twilio = ListingTwilio()
        try await withLocalServer(twilio.router) { port in
            // The first attempt reached Twilio; its answer was lost with the process.
            let started = Date()
            _ = try await channel(port: port).send(OutgoingMessage.fixture(channel: .sms, address: "+15551234567"))
            let first = try #require(twilio.messages.withLock { $0.first?.sid })

            let receipt = try await channel(port: port).send(Self.inDoubt(since: started))
            #expect(receipt == .foundAtProvider(providerID: first))
            #expect(twilio.posts.withLock { $0 } == 1, "not sent a second time")
            let query = try #require(twilio.lists.withLock { $0.first })
            #expect(query.contains("To=%2B15551234567") && query.contains("From=%2B15557654321"))
        }
    }

    @Test(arguments: [
        ("another body", "queued", 0.0), ("same", "failed", 0.0), ("same", "undelivered", 0.0),
        ("same", "queued", -3600.0),
    ])
    func aTextTwilioDoesNotHaveIsSentAgain(body: String, status: String, age: TimeInterval) async throws {
        let twilio = ListingTwilio()
        try await withLocalServer(twilio.router) { port in
            let message = Self.inDoubt(since: Date())
            twilio.store(
                .init(
                    sid: "SM" + String(repeating: "9", count: 32), to: "+15551234567", from: "+15557654321",
                    body: body == "same" ? TwilioChannel.smsText(message) : body, status: status, created: Date().addingTimeInterval(age)))
            let receipt = try await channel(port: port).send(message)
            #expect(receipt.foundAtProvider == false)
            #expect(twilio.posts.withLock { $0 } == 1, "sent (the earlier copy is not this one, or never arrived)")
        }
    }

    @Test func whenTwilioCannotBeAskedTheTextIsSentAgain() async throws {
        let twilio = ListingTwilio(listStatus: .internalServerError)
        try await withLocalServer(twilio.router) { port in
            let receipt = try await channel(port: port).send(Self.inDoubt(since: Date()))
            #expect(receipt.foundAtProvider == false)
            #expect(twilio.posts.withLock { $0 } == 1)
            #expect(twilio.lists.withLock { $0.count } == 1)
        }
    }

    @Test func aTextNotInDoubtIsSentWithoutAsking() async throws {
        let twilio = ListingTwilio()
        try await withLocalServer(twilio.router) { port in
            _ = try await channel(port: port).send(OutgoingMessage.fixture(channel: .sms, address: "+15551234567"))
            _ = try await channel(port: port).send(OutgoingMessage.fixture(channel: .sms, address: "+15551234567"))
            #expect(twilio.lists.withLock { $0.isEmpty })
            #expect(twilio.posts.withLock { $0 } == 2)
        }
    }

    @Test func twilioDatesAreRead() {
        #expect(TwilioChannel.rfc2822("Wed, 18 Aug 2010 20:01:40 +0000") == Date(timeIntervalSince1970: 1_282_161_700))
        #expect(TwilioChannel.rfc2822("yesterday") == nil)
    }
}
