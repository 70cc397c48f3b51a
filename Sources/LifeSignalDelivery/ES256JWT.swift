import Crypto
import Foundation

/// A compact JWS signed with ES256 (P-256, SHA-256, raw r‖s signature), as VAPID and APNs use.
/// Numeric claims are written as integers: both services reject fractional `exp`/`iat`.
enum ES256JWT {
    static func sign(header: some Encodable, claims: some Encodable, key: P256.Signing.PrivateKey) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let signingInput =
            try encoder.encode(header).base64URLEncodedString + "." + encoder.encode(claims).base64URLEncodedString
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + signature.rawRepresentation.base64URLEncodedString
    }
}

/// A P-256 private key from configuration: a PEM (PKCS#8 or SEC1, e.g. an APNs `.p8` file) or
/// the raw 32-byte scalar in base64url (the usual form of a VAPID private key).
enum P256KeyParser {
    static func signingKey(_ text: String) throws -> P256.Signing.PrivateKey {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("-----BEGIN") {
            return try P256.Signing.PrivateKey(pemRepresentation: trimmed)
        }
        guard let raw = Data(base64URLEncoded: trimmed) else { throw KeyError.unreadable }
        return raw.count == 32
            ? try P256.Signing.PrivateKey(rawRepresentation: raw)
            : try P256.Signing.PrivateKey(derRepresentation: raw)
    }

    enum KeyError: Error { case unreadable }
}
