import Crypto
import Foundation

/// The `LifeSignal-Signature` header on every webhook call, and how a receiver checks it.
///
/// Format: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the shared secret>`.
/// A receiver recomputes the HMAC over the raw bytes it received (before any JSON parsing) and
/// rejects timestamps too far from its own clock, which stops replays of old calls.
public enum WebhookSignature {
    /// The header's name.
    public static let headerName = "LifeSignal-Signature"

    /// The header value for `body` sent at `timestamp`.
    public static func sign(body: some DataProtocol, secret: String, timestamp: Date) -> String {
        let seconds = Int(timestamp.timeIntervalSince1970.rounded(.down))
        return "t=\(seconds),v1=\(mac(body: body, secret: secret, seconds: seconds).hexString)"
    }

    /// Whether `header` is a valid signature of `body` under `secret`, made within `tolerance`
    /// seconds of `now`. Any `v1` entry may match, so a sender can sign with an old and a new
    /// secret while rotating.
    public static func verify(
        header: String, body: some DataProtocol, secret: String, now: Date,
        tolerance: TimeInterval = 300
    ) -> Bool {
        var timestamp: Int?
        var candidates: [Data] = []
        for part in header.split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            switch pair[0] {
            case "t": timestamp = Int(pair[1])
            case "v1": if let mac = Data(hexString: pair[1]) { candidates.append(mac) }
            default: continue
            }
        }
        guard let timestamp, !candidates.isEmpty,
            abs(now.timeIntervalSince1970 - TimeInterval(timestamp)) <= tolerance
        else { return false }
        let key = SymmetricKey(data: Data(secret.utf8))
        var signed = Data("\(timestamp).".utf8)
        signed.append(contentsOf: body)
        return candidates.contains {
            HMAC<SHA256>.isValidAuthenticationCode($0, authenticating: signed, using: key)
        }
    }

    private static func mac(body: some DataProtocol, secret: String, seconds: Int) -> some Sequence<UInt8> {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: Data(secret.utf8)))
        hmac.update(data: Data("\(seconds).".utf8))
        hmac.update(data: Data(body))
        return Array(hmac.finalize())
    }
}
