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
