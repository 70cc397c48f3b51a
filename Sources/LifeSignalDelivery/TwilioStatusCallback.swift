import LifeSignalModels

/// A delivery-status callback from Twilio, read from its form body.
///
/// Messages post `MessageSid` + `MessageStatus`, calls `CallSid` + `CallStatus`. Check
/// ``TwilioSignature`` before trusting one.
public struct TwilioStatusCallback: Sendable, Hashable {
    /// The SID the adapter stored as the delivery's provider id.
    public var providerID: String
    /// What the delivery becomes.
    public var status: Delivery.Status
    /// Twilio's own word (`delivered`, `undelivered`, `no-answer`…), for the log.
    public var providerStatus: String
    /// Why it failed, fit to show a person; `nil` unless `status` is `.failed`.
    public var reason: String?
    /// Twilio's error code, when it sent one.
    public var errorCode: String?

    /// Reads a callback; `nil` when it names no SID or an unknown status.
    public init?(parameters: [(String, String)]) {
        func value(_ name: String) -> String? {
            parameters.first { $0.0 == name }.map(\.1).flatMap { $0.isEmpty ? nil : $0 }
        }
        let isCall = value("CallSid") != nil && value("MessageSid") == nil
        guard let sid = isCall ? value("CallSid") : value("MessageSid"),
            let providerStatus = (isCall ? value("CallStatus") : value("MessageStatus") ?? value("SmsStatus"))?.lowercased(),
            let (status, reason) = Self.mapping[providerStatus]
        else { return nil }
        self.providerID = sid
        self.status = status
        self.providerStatus = providerStatus
        self.reason = reason
        self.errorCode = value("ErrorCode")
    }

    /// Reads a callback from its raw `application/x-www-form-urlencoded` body.
    public init?(formBody: String) {
        self.init(parameters: FormURLEncoding.decode(formBody))
    }

    private static let mapping: [String: (Delivery.Status, String?)] = [
        // Messages
        "accepted": (.sent, nil), "scheduled": (.sent, nil), "queued": (.sent, nil),
        "sending": (.sent, nil), "sent": (.sent, nil),
        "delivered": (.delivered, nil), "read": (.delivered, nil),
        "undelivered": (.failed, "The text message could not be delivered."),
        "failed": (.failed, "The text message could not be sent."),
        "canceled": (.failed, "The message was canceled."),
        // Calls
        "initiated": (.sent, nil), "ringing": (.sent, nil),
        "in-progress": (.delivered, nil), "answered": (.delivered, nil), "completed": (.delivered, nil),
        "busy": (.failed, "The line was busy."),
        "no-answer": (.failed, "Nobody answered the call."),
    ]
}
