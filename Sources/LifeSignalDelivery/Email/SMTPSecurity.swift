/// How the connection to the mail server is protected.
public enum SMTPSecurity: String, Sendable, Hashable, Codable {
    /// Plain text: only for a relay on the same host or a test sink.
    case none
    /// Connect in plain text, then upgrade with `STARTTLS` (usually port 587). Fails rather
    /// than continue unencrypted when the server does not offer it.
    case startTLS
    /// TLS from the first byte (usually port 465).
    case implicitTLS
}
