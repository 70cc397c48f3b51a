import Crypto
import Foundation

/// Twilio's `X-Twilio-Signature`: base64 of HMAC-SHA1, keyed with the auth token, over the full
/// callback URL followed by every POST parameter's name and value, sorted by name.
public enum TwilioSignature {
    /// The header's name.
    public static let headerName = "X-Twilio-Signature"

    /// The signature Twilio would send for `url` and `parameters`.
    public static func compute(url: String, parameters: [(String, String)], authToken: String) -> String {
        Data(mac(url: url, parameters: parameters, authToken: authToken)).base64EncodedString()
    }

    /// Whether `signature` is Twilio's for this request (constant-time comparison).
    /// - Parameter url: the URL exactly as configured at Twilio, query string included.
    public static func isValid(
        signature: String, url: String, parameters: [(String, String)], authToken: String
    ) -> Bool {
        guard let given = Data(base64Encoded: signature) else { return false }
        return HMAC<Insecure.SHA1>.isValidAuthenticationCode(
            given, authenticating: signedData(url: url, parameters: parameters),
            using: SymmetricKey(data: Data(authToken.utf8)))
    }

    /// ``isValid(signature:url:parameters:authToken:)`` for a raw form body.
    public static func isValid(signature: String, url: String, formBody: String, authToken: String) -> Bool {
        isValid(signature: signature, url: url, parameters: FormURLEncoding.decode(formBody), authToken: authToken)
    }

    private static func signedData(url: String, parameters: [(String, String)]) -> Data {
        var text = url
        for (name, value) in parameters.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
            text += name + value
        }
        return Data(text.utf8)
    }

    private static func mac(url: String, parameters: [(String, String)], authToken: String) -> HMAC<Insecure.SHA1>.MAC {
        HMAC<Insecure.SHA1>.authenticationCode(
            for: signedData(url: url, parameters: parameters), using: SymmetricKey(data: Data(authToken.utf8)))
    }
}
