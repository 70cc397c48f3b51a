import Crypto
import Foundation

/// The browser's side of RFC 8291, written from §3.4 for the tests: derive the same keys from the
/// subscription's private key and open the record.
struct WebPushReceiver {
    let privateKey: P256.KeyAgreement.PrivateKey
    let authSecret: Data

    var subscriptionKeys: (p256dh: String, auth: String) {
        (base64url(privateKey.publicKey.x963Representation), base64url(authSecret))
    }

    enum Failure: Error { case malformed(String) }

    func decrypt(_ body: Data) throws -> Data {
        let bytes = [UInt8](body)
        guard bytes.count > 86 else { throw Failure.malformed("shorter than the header") }
        let salt = Data(bytes[0..<16])
        let recordSize = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let idLength = Int(bytes[20])
        guard recordSize == 4096, idLength == 65 else { throw Failure.malformed("rs \(recordSize), idlen \(idLength)") }
        let senderPublic = Data(bytes[21..<86])
        let sealed = Data(bytes[86...])
        guard sealed.count <= recordSize else { throw Failure.malformed("more than one record") }

        let sender = try P256.KeyAgreement.PublicKey(x963Representation: senderPublic)
        let shared = try privateKey.sharedSecretFromKeyAgreement(with: sender)
        var info = Data("WebPush: info\u{0}".utf8)
        info += privateKey.publicKey.x963Representation
        info += senderPublic
        let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: authSecret, sharedInfo: info, outputByteCount: 32)
        let cek = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: aes128gcm\u{0}".utf8), outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: nonce\u{0}".utf8), outputByteCount: 12)
        let box = try AES.GCM.SealedBox(
            nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }),
            ciphertext: sealed.dropLast(16), tag: sealed.suffix(16))
        var plaintext = [UInt8](try AES.GCM.open(box, using: cek))
        while plaintext.last == 0 { plaintext.removeLast() }
        guard plaintext.last == 2 else { throw Failure.malformed("missing last-record delimiter") }
        return Data(plaintext.dropLast())
    }
}

func base64url(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

func fromBase64url(_ text: String) -> Data? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64)
}

/// A decoded compact JWS, its ES256 signature checked against `publicKey`.
struct VerifiedJWT {
    var header: [String: Any]
    var claims: [String: Any]

    init(_ token: String, publicKey: P256.Signing.PublicKey) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = fromBase64url(parts[0]), let claimsData = fromBase64url(parts[1]),
            let signatureData = fromBase64url(parts[2])
        else { throw FakeServerError("not a JWS") }
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: signatureData)
        guard publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)) else {
            throw FakeServerError("bad signature")
        }
        header = try JSONSerialization.jsonObject(with: headerData) as? [String: Any] ?? [:]
        claims = try JSONSerialization.jsonObject(with: claimsData) as? [String: Any] ?? [:]
        self.rawClaims = String(decoding: claimsData, as: UTF8.self)
    }

    /// The claims JSON as sent, to check numbers are written as integers.
    var rawClaims: String
}
