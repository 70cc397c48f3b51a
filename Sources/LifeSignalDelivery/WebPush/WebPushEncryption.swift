import Crypto
import Foundation

/// RFC 8291 message encryption: the `aes128gcm` content coding (RFC 8188) keyed by ECDH between a
/// one-time key and the browser's key, mixed with the browser's auth secret. One record.
public enum WebPushEncryption {
    /// The record size written in the header (RFC 8291 §4 uses 4096).
    public static let recordSize = 4096
    /// Bytes of header: salt (16) + record size (4) + key id length (1) + P-256 public key (65).
    public static let headerSize = 86
    /// The largest plaintext that fits one record: record size minus tag and delimiter.
    public static let maximumPlaintextSize = recordSize - 16 - 1

    public enum Failure: Error, Sendable, Equatable {
        /// The subscription's `p256dh` is not an uncompressed P-256 point.
        case invalidPublicKey
        /// The subscription's `auth` is not 16 bytes.
        case invalidAuthSecret
        case plaintextTooLarge
    }

    /// Encrypts `plaintext` for a browser.
    /// - Parameters:
    ///   - userAgentPublicKey: the subscription's `p256dh`, decoded (65 bytes).
    ///   - authSecret: the subscription's `auth`, decoded (16 bytes).
    ///   - senderKey: the one-time key; injected only to reproduce test vectors.
    ///   - salt: 16 random bytes; injected only to reproduce test vectors.
    /// - Returns: the request body: header, then ciphertext and tag.
    public static func encrypt(
        _ plaintext: Data, userAgentPublicKey: Data, authSecret: Data,
        senderKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(),
        salt: Data = Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
    ) throws(Failure) -> Data {
        guard plaintext.count <= maximumPlaintextSize else { throw .plaintextTooLarge }
        guard authSecret.count == 16 else { throw .invalidAuthSecret }
        guard userAgentPublicKey.count == 65,
            let userAgentKey = try? P256.KeyAgreement.PublicKey(x963Representation: userAgentPublicKey),
            let shared = try? senderKey.sharedSecretFromKeyAgreement(with: userAgentKey)
        else { throw .invalidPublicKey }
        let senderPublicKey = senderKey.publicKey.x963Representation

        // §3.3: IKM = HKDF(auth_secret, ecdh_secret, "WebPush: info" ‖ 0 ‖ ua_public ‖ as_public, 32)
        var keyInfo = Data("WebPush: info".utf8)
        keyInfo.append(0)
        keyInfo.append(userAgentPublicKey)
        keyInfo.append(senderPublicKey)
        let ikm = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: authSecret, sharedInfo: keyInfo, outputByteCount: 32)

        // RFC 8188 §2.2–2.3: CEK and nonce from HKDF(salt, IKM)
        let cek = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: aes128gcm\u{0}".utf8), outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: nonce\u{0}".utf8), outputByteCount: 12)

        var padded = plaintext
        padded.append(2)  // delimiter of the last (only) record, no padding
        let sealed: AES.GCM.SealedBox
        do {
            sealed = try AES.GCM.seal(
                padded, using: cek, nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }))
        } catch {
            throw .invalidPublicKey  // unreachable: key and nonce sizes are fixed above
        }

        var body = Data()
        body.append(salt)
        withUnsafeBytes(of: UInt32(recordSize).bigEndian) { body.append(contentsOf: $0) }
        body.append(UInt8(senderPublicKey.count))
        body.append(senderPublicKey)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }
}
