import Crypto
import Foundation

/// Provider authentication tokens for APNs: an ES256 JWT (`kid` header, `iss` and `iat`
/// claims) reused until it is `lifetime` old. Apple refuses tokens older than an hour and
/// throttles ones renewed more often than every 20 minutes, so the default is 50 minutes.
actor APNsTokenProvider {
    private let key: P256.Signing.PrivateKey
    private let keyID: String
    private let teamID: String
    private let lifetime: TimeInterval
    private var cached: (token: String, issuedAt: Date)?

    init(privateKey: String, keyID: String, teamID: String, lifetime: TimeInterval) throws {
        self.key = try P256KeyParser.signingKey(privateKey)
        self.keyID = keyID
        self.teamID = teamID
        self.lifetime = min(max(lifetime, 20 * 60), 50 * 60)
    }

    /// The current token, signing a new one when the cached one is due for renewal.
    func token(now: Date) throws -> String {
        if let cached, now >= cached.issuedAt, now.timeIntervalSince(cached.issuedAt) < lifetime {
            return cached.token
        }
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let token = try ES256JWT.sign(
            header: Header(kid: keyID), claims: Claims(iss: teamID, iat: Int(issuedAt.timeIntervalSince1970)), key: key)
        cached = (token, issuedAt)
        return token
    }

    /// Forgets the cached token after APNs called it expired or invalid.
    func invalidate() {
        cached = nil
    }

    struct Header: Encodable {
        var alg = "ES256"
        var kid: String
    }

    /// Apple documents only `iss` and `iat`; `iat` is an integer.
    struct Claims: Encodable {
        var iss: String
        var iat: Int
    }
}
