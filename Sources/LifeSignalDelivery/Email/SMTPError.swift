/// What went wrong talking to the mail server, before it becomes a ``DeliveryFailure``.
enum SMTPError: Error, Sendable, Equatable {
    /// The TCP connection could not be made.
    case connectionFailed(String)
    /// The server did not answer within the configured time.
    case timedOut
    /// The server hung up mid-conversation.
    case connectionClosed
    /// TLS could not be set up (handshake, certificate, or STARTTLS not offered).
    case tlsFailed(String)
    /// The server answered a command with an unexpected code.
    case rejected(command: String, code: Int, text: String)
    /// Credentials are configured but the server offers no mechanism we speak.
    case noAuthMechanism
    /// The server said something that is not SMTP.
    case protocolViolation(String)

    /// The failure a person sees; 4xx replies and network trouble are worth a retry.
    var deliveryFailure: DeliveryFailure {
        switch self {
        case .connectionFailed, .connectionClosed:
            .transient("The mail server could not be reached.")
        case .timedOut:
            .transient("The mail server did not answer in time.")
        case .tlsFailed:
            .permanent("A secure connection to the mail server could not be made.")
        case .noAuthMechanism:
            .permanent("The mail server does not accept our sign-in method.")
        case .protocolViolation:
            .transient("The mail server gave an answer that could not be read.")
        case .rejected(let command, let code, _):
            if (400..<500).contains(code) {
                .transient("The mail server is busy; it will be tried again.")
            } else if command == "RCPT TO" {
                .permanent("The mail server refused the e-mail address.")
            } else if command == "AUTH" {
                .permanent("The mail server refused our credentials.")
            } else {
                .permanent("The mail server refused the message (\(code)).")
            }
        }
    }
}
