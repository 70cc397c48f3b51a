import Crypto
import LifeSignalModels

/// Lowercase hex SHA-256 of a text's UTF-8: timeline hashes, token and code hashes.
public enum SHA256Hex {
    /// Hashed where the text's bytes lie and the digest read as one buffer: a `Data` copy and
    /// byte-by-byte digest iteration cost more than the hash itself.
    public static func of(_ text: String) -> String {
        var text = text
        return text.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }.withUnsafeBytes { $0.lowercaseHex }
    }
}
