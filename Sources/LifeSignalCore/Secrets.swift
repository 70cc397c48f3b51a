import Crypto
import Foundation
import LifeSignalModels
import LifeSignalStore

/// Hashing and encoding of secrets: tokens and codes are stored only as SHA-256 hashes.
enum Secrets {
    static func sha256Hex(_ text: String) -> String {
        SHA256Hex.of(text)
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.lowercaseHex }

    static let sealedPrefix = "sealed:v1:"

    /// `secret` encrypted for storage (AES-GCM under a key derived from the server key), so a
    /// copy of the database alone cannot forge a webhook signature: `sealed:v1:<base64>`.
    static func seal(_ secret: String, key: [UInt8]) -> String {
        let box = try! AES.GCM.seal(Array(secret.utf8), using: storageKey(key))
        return sealedPrefix + box.combined!.base64EncodedString()
    }

    /// The secret `stored` holds: opened when sealed, as it is when written before sealing
    /// existed; nil when it was sealed under another key (or altered).
    static func open(_ stored: String, key: [UInt8]) -> String? {
        guard stored.hasPrefix(sealedPrefix) else { return stored }
        guard let data = Data(base64Encoded: String(stored.dropFirst(sealedPrefix.count))),
            let box = try? AES.GCM.SealedBox(combined: data),
            let plain = try? AES.GCM.open(box, using: storageKey(key))
        else { return nil }
        return String(decoding: plain, as: UTF8.self)
    }

    private static func storageKey(_ key: [UInt8]) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: key), info: Array("lifesignal webhook secrets".utf8), outputByteCount: 32)
    }

    /// HMAC-SHA256 of `text` keyed with `key`, hex: what is stored of a secret the server
    /// alone must be able to check (a sign-in code), so the database alone cannot.
    static func hmacHex(key: [UInt8], _ text: String) -> String {
        Array(HMAC<SHA256>.authenticationCode(for: Array(text.utf8), using: SymmetricKey(data: key))).lowercaseHex
    }

    /// Compares without an early exit, so timing says nothing about where they differ.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension Accounts {
    /// How a bearer token is stored: its SHA-256, hex. For tools that seed sessions directly.
    public static func tokenHash(_ token: String) -> String { Secrets.sha256Hex(token) }
}
