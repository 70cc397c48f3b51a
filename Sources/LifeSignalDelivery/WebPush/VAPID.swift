import Crypto
import Foundation

/// RFC 8292 application server identification: an ES256 JWT naming the push service's origin,
/// an expiry, and a contact, sent with the server's public key.
public struct VAPID: Sendable {
    private let key: P256.Signing.PrivateKey
    /// `mailto:` or `https:` contact for the push service's operators.
    public let subject: String
    /// How long each token is valid; at most 24 hours (RFC 8292 §2).
    public let validity: TimeInterval

    /// - Parameter privateKey: the raw 32-byte scalar in base64url, or a PEM.
    public init(privateKey: String, subject: String, validity: TimeInterval = 12 * 3600) throws {
        self.key = try P256KeyParser.signingKey(privateKey)
        self.subject = subject
        self.validity = min(validity, 24 * 3600)
    }

    /// The uncompressed public key in base64url: the browser's `applicationServerKey`.
    public var publicKey: String {
        key.publicKey.x963Representation.base64URLEncodedString
    }

    /// `vapid t=<jwt>, k=<public key>` for a push to `endpoint`, issued at `now`.
    public func authorization(endpoint: URL, now: Date) throws -> String {
        guard let origin = Self.origin(of: endpoint) else { throw URLError(.badURL) }
        let claims = Claims(aud: origin, exp: Int(now.timeIntervalSince1970 + validity), sub: subject)
        let token = try ES256JWT.sign(header: Header(), claims: claims, key: key)
        return "vapid t=\(token), k=\(publicKey)"
    }

    /// `scheme://host[:port]`, the port only when it is not the scheme's default.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        if let port = url.port, port != defaultPort { return "\(scheme)://\(host):\(port)" }
        return "\(scheme)://\(host)"
    }

    struct Header: Encodable {
        var typ = "JWT"
        var alg = "ES256"
    }

    struct Claims: Encodable {
        var aud: String
        var exp: Int
        var sub: String
    }
}
