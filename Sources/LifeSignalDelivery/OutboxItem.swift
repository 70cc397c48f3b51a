import Foundation

/// A queued delivery claimed from the outbox, with how often it has been tried before.
public struct OutboxItem: Sendable, Hashable {
    public var message: OutgoingMessage
    /// Attempts already made on this delivery before this claim; 0 for a fresh one.
    public var attempts: Int
    /// When the lease that makes this worker the only one attempting it ends: the claim's,
    /// or the one a delivery handed over was stored with.
    public var leaseUntil: Date
    /// The host a person's own URL points at (webhook, Web Push endpoint), for the worker's
    /// per-destination share; nil for the operator's providers (SMS, e-mail, APNs, ntfy, log).
    public let destinationHost: String?
    /// An earlier attempt was handed to its provider and never recorded (its worker died or was
    /// cut off): the recipient may have it already. Before sending again the adapter asks the
    /// provider where it can (``OutgoingMessage/inDoubtSince``); otherwise this send is recorded
    /// as possibly twice.
    public var mayHaveBeenSent: Bool { inDoubtSince != nil }
    /// When that earlier attempt was handed to its provider.
    public var inDoubtSince: Date?

    public init(message: OutgoingMessage, attempts: Int, leaseUntil: Date, inDoubtSince: Date? = nil) {
        self.message = message
        self.attempts = attempts
        self.leaseUntil = leaseUntil
        self.destinationHost = Self.host(of: message)
        self.inDoubtSince = inDoubtSince
    }

    static func host(of message: OutgoingMessage) -> String? {
        let url: URL? =
            switch message.channel {
            case .webhook: URL(string: message.address)
            case .webPush:
                (try? JSONDecoder().decode(PushEndpoint.self, from: Data(message.address.utf8)))
                    .flatMap { URL(string: $0.endpoint) }
            default: nil
            }
        guard let url, let host = url.host?.lowercased() else { return nil }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    private struct PushEndpoint: Decodable { var endpoint: String }
}
