import Foundation
import LifeSignalDelivery
import Testing

@Suite struct WebhookSignatureTests {
    let body = Data(#"{"a":1}"#.utf8)
    let timestamp = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func signatureMatchesAnIndependentHMAC() {
        // Computed with Python: hmac.new(b"whsec_test", b'1700000000.{"a":1}', sha256).hexdigest()
        #expect(
            WebhookSignature.sign(body: body, secret: "whsec_test", timestamp: timestamp)
                == "t=1700000000,v1=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789")
    }

    @Test func verifyAcceptsOwnSignatureWithinTolerance() {
        let header = WebhookSignature.sign(body: body, secret: "s3cret", timestamp: timestamp)
        #expect(WebhookSignature.verify(header: header, body: body, secret: "s3cret", now: timestamp + 299))
    }

    @Test func verifyRejectsTamperingWrongSecretAndReplays() {
        let header = WebhookSignature.sign(body: body, secret: "s3cret", timestamp: timestamp)
        #expect(!WebhookSignature.verify(header: header, body: Data(#"{"a":2}"#.utf8), secret: "s3cret", now: timestamp))
        #expect(!WebhookSignature.verify(header: header, body: body, secret: "other", now: timestamp))
        #expect(!WebhookSignature.verify(header: header, body: body, secret: "s3cret", now: timestamp + 301))
        #expect(!WebhookSignature.verify(header: "garbage", body: body, secret: "s3cret", now: timestamp))
        #expect(!WebhookSignature.verify(header: "t=1700000000", body: body, secret: "s3cret", now: timestamp))
    }

    @Test func verifyAcceptsAnyOfSeveralV1DuringSecretRotation() {
        let old = WebhookSignature.sign(body: body, secret: "old", timestamp: timestamp)
        let new = WebhookSignature.sign(body: body, secret: "new", timestamp: timestamp)
        let header = new + "," + old.split(separator: ",")[1]
        #expect(WebhookSignature.verify(header: header, body: body, secret: "old", now: timestamp))
        #expect(WebhookSignature.verify(header: header, body: body, secret: "new", now: timestamp))
    }
}
