import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalRules

@Suite("Channel addresses")
struct ChannelAddressTests {
    static let p256dh = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
    static let auth = "tBHItJI5svbpez7KI4CCXg"

    static func subscription(endpoint: String, p256dh: String = p256dh, auth: String = auth) -> String {
        #"{"endpoint":"\#(endpoint)","keys":{"p256dh":"\#(p256dh)","auth":"\#(auth)"}}"#
    }

    static let acceptedCases: [(ChannelKind, String, String)] = [
        (ChannelKind.email, " ada@example.com ", "ada@example.com"),
        (.email, "ada.lovelace+alerts@mail.example.co.uk", "ada.lovelace+alerts@mail.example.co.uk"),
        (.email, "zoë@exämple.de", "zoë@exämple.de"),
        (.sms, "+44 7700 900123", "+447700900123"), (.voice, "+1 (415) 555-0123", "+14155550123"),
        (.webhook, "https://hooks.example.com/t/abc?token=xyz", "https://hooks.example.com/t/abc?token=xyz"),
        (.webhook, "https://8.8.8.8:8443/hook", "https://8.8.8.8:8443/hook"),
        (.ntfy, "my-topic_1", "my-topic_1"), (.ntfy, "https://ntfy.sh/my-topic", "my-topic"),
        (.apns, String(repeating: "AB", count: 32), String(repeating: "ab", count: 32)),
        (
            .webPush, subscription(endpoint: "https://fcm.googleapis.com/fcm/send/abc"),
            subscription(endpoint: "https://fcm.googleapis.com/fcm/send/abc")
        ),
    ]

    @Test("accepted, and what is stored", arguments: acceptedCases)
    func accepted(kind: ChannelKind, input: String, stored: String) throws {
        #expect(try ChannelAddress.validated(kind, input) == stored)
    }

    static let refusedCases: [(ChannelKind, String)] = [
        // e-mail: one plain address, no header injection
        (ChannelKind.email, "nope"), (.email, "ada@example"), (.email, "ada@@example.com"), (.email, "ada@example.com\r\nBcc: x@y.z"),
        (.email, "ada@example.com\nx"), (.email, "a b@example.com"), (.email, "ada@example.com, bob@example.com"),
        (.email, "Ada <ada@example.com>"), (.email, "\"ada\"@example.com"), (.email, ".ada@example.com"),
        (.email, "ada@-example.com"), (.email, "ada@example..com"), (.email, "ada@[127.0.0.1]"), (.email, "ada@1.2.3.4"),
        (.email, String(repeating: "a", count: 65) + "@example.com"), (.email, "a@" + String(repeating: "b", count: 250) + ".com"),
        (.email, "ada\u{0}@example.com"),
        // phone numbers
        (.sms, "07700 900123"), (.voice, "+44 7700\n900123"), (.sms, "call me"),
        // webhooks: https, public-looking host, no credentials, bounded
        (.webhook, "http://hooks.example.com/x"), (.webhook, "ftp://hooks.example.com/x"), (.webhook, "hooks.example.com/x"),
        (.webhook, "https://user:pass@hooks.example.com/x"), (.webhook, "https://token@hooks.example.com/x"),
        (.webhook, "https://127.0.0.1/x"), (.webhook, "https://127.1/x"), (.webhook, "https://0177.0.0.1/x"),
        (.webhook, "https://0x7f000001/x"), (.webhook, "https://2130706433/x"), (.webhook, "https://[::1]/x"),
        (.webhook, "https://[::ffff:127.0.0.1]/x"), (.webhook, "https://[64:ff9b::a9fe:a9fe]/x"),
        (.webhook, "https://169.254.169.254/latest/meta-data"), (.webhook, "https://0xa9fea9fe/"),
        (.webhook, "https://localhost/x"), (.webhook, "https://app.localhost/x"), (.webhook, "https://nas.local/x"),
        (.webhook, "https://metadata.google.internal/x"), (.webhook, "https://intranet/x"),
        (.webhook, "https://hooks.example.com/x\r\nX-Evil: 1"),
        (.webhook, "https://hooks.example.com/" + String(repeating: "a", count: 2100)),
        (.webhook, "https://hooks.example.com:99999/x"),
        // ntfy topics
        (.ntfy, "bad topic"), (.ntfy, String(repeating: "a", count: 65)), (.ntfy, "tópico"),
        // web push
        (.webPush, "{}"), (.webPush, "not json"), (.webPush, subscription(endpoint: "http://push.example.com/x")),
        (.webPush, subscription(endpoint: "https://127.0.0.1:8443/push")), (.webPush, subscription(endpoint: "https://10.0.0.1/push")),
        (.webPush, subscription(endpoint: "https://push.example.com/x", p256dh: "short")),
        (.webPush, subscription(endpoint: "https://push.example.com/x", auth: "!!!")),
        // APNs tokens
        (.apns, "not-hex"), (.apns, String(repeating: "a", count: 63)), (.apns, String(repeating: "g", count: 64)),
        (.inApp, "anything"),
    ]

    @Test("refused", arguments: refusedCases)
    func refused(kind: ChannelKind, input: String) {
        #expect(throws: ValidationError.self) { try ChannelAddress.validated(kind, input) }
        do {
            _ = try ChannelAddress.validated(kind, input)
        } catch {
            #expect(error.field == "address")
            #expect(!error.message.isEmpty)
        }
    }

    @Test("the test opt-out allows http and fakes on 127.0.0.1, and nothing else")
    func localTesting() throws {
        let local = ChannelAddress.Options.localTesting
        #expect(try ChannelAddress.validated(.webhook, "http://127.0.0.1:8080/hook", options: local) == "http://127.0.0.1:8080/hook")
        #expect(throws: ValidationError.self) { try ChannelAddress.validated(.webhook, "http://127.0.0.1:8080/hook") }
        #expect(throws: ValidationError.self) {
            try ChannelAddress.validated(.webhook, "http://u:p@127.0.0.1/hook", options: local)
        }
        #expect(throws: ValidationError.self) {
            try ChannelAddress.validated(.email, "a@example.com\r\nBcc: b@example.com", options: local)
        }
    }
}
