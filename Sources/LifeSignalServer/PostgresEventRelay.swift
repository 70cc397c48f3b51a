import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalStore
import Logging
import ServiceLifecycle
import Synchronization

/// Carries live events between `lifesignal serve` instances that share one PostgreSQL
/// database, so a check-in on instance A reaches an SSE client connected to instance B.
///
/// - Publishing: the hub's relay hands each event to a queue (the request never waits for
///   the database); a sender task drains it and sends the queued events as `NOTIFY`s on
///   ``channel``, several per transaction. Each payload is the JSON of ``Envelope``: this
///   instance's id, the event and its users. PostgreSQL's payload limit is 8000 bytes, so
///   the users are split over several notifications when needed; an event that does not fit
///   even for one user is sent as a `reload` marker and arrives as `.contactsChanged` (the
///   clients reload their lists, which carries the change).
/// - Receiving: one `LISTEN` per instance; notifications whose origin is another instance
///   are delivered with `EventHub.deliverLocally` (this instance's own were delivered
///   locally when published).
/// - LISTEN/NOTIFY is best-effort: an event sent while the listener reconnects is lost. The
///   clients treat events as "something changed" and re-read; nothing durable rides on it.
public final class PostgresEventRelay: Service, Sendable {
    public static let channel = "lifesignal_events"
    /// Keeps a margin under PostgreSQL's 8000-byte payload limit.
    static let payloadLimit = 7800

    struct Envelope: Codable {
        /// The instance that published.
        var o: String
        /// The event; nil for a reload marker.
        var e: LiveEvent?
        /// The users it is for.
        var u: [UserID]
        var reload: Bool?
    }

    let bus: StoreEventChannel
    public let hub: EventHub
    /// A random id per process (two apps in one test process must differ).
    public let instanceID: String
    let logger: Logger
    /// Payloads waiting to be sent, and a wake-up for the sender.
    private let pending = Mutex<[String]>([])
    private let wake: AsyncStream<Void>
    private let wakeInput: AsyncStream<Void>.Continuation
    private let started = Mutex(false)

    public init(channel: StoreEventChannel, hub: EventHub, logger: Logger) {
        self.bus = channel
        self.hub = hub
        self.instanceID = UUID().uuidString.lowercased()
        self.logger = logger
        (wake, wakeInput) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The relay to install in the hub (`hub.setRelay(relay.relay)`).
    public var relay: EventHub.Relay {
        EventHub.Relay { [self] event, users in
            let payloads = self.payloads(event, users)
            guard !payloads.isEmpty else { return }
            self.pending.withLock { $0.append(contentsOf: payloads) }
            self.wakeInput.yield()
        }
    }

    /// The NOTIFY payloads for one event: the users split so that each payload fits.
    func payloads(_ event: LiveEvent, _ users: [UserID]) -> [String] {
        guard !users.isEmpty else { return [] }
        let encoder = JSONEncoder()
        func encode(_ envelope: Envelope) -> String? {
            (try? encoder.encode(envelope)).flatMap { String(data: $0, encoding: .utf8) }
        }
        if let whole = encode(Envelope(o: instanceID, e: event, u: users)), whole.utf8.count <= Self.payloadLimit {
            return [whole]
        }
        guard let one = encode(Envelope(o: instanceID, e: event, u: [users[0]])), one.utf8.count <= Self.payloadLimit - 200 else {
            // Too big for any payload: a reload marker with the ids only.
            return stride(from: 0, to: users.count, by: 100).compactMap { start in
                encode(Envelope(o: instanceID, e: nil, u: Array(users[start..<min(start + 100, users.count)]), reload: true))
            }
        }
        // ~40 bytes per user id in JSON.
        let perPayload = max(1, (Self.payloadLimit - one.utf8.count) / 45)
        return stride(from: 0, to: users.count, by: perPayload).compactMap { start in
            encode(Envelope(o: instanceID, e: event, u: Array(users[start..<min(start + perPayload, users.count)])))
        }
    }

    /// Delivers a notification received from the channel; ignores this instance's own.
    func receive(_ payload: String) {
        guard let data = payload.data(using: .utf8),
            let envelope = try? JSONDecoder().decode(Envelope.self, from: data)
        else {
            logger.warning("unreadable live event on \(Self.channel)", metadata: ["payload": "\(payload.prefix(200))"])
            return
        }
        guard envelope.o != instanceID else { return }
        hub.deliverLocally(envelope.e ?? .contactsChanged, to: envelope.u)
    }

    /// Listens and sends until graceful shutdown.
    public func run() async throws {
        guard
            started.withLock({ s in
                defer { s = true }; return !s
            })
        else { return }
        let incoming = try await bus.listen(Self.channel)
        logger.debug("listening for live events of other instances", metadata: ["channel": "\(Self.channel)"])
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.send() }
            group.addTask {
                for await payload in incoming { self.receive(payload) }
            }
            group.addTask {
                try? await gracefulShutdown()
                self.wakeInput.finish()
            }
            _ = await group.next()
            group.cancelAll()
        }
    }

    /// Sends the queued payloads, up to 50 per transaction, in order.
    private func send() async {
        for await _ in wake {
            while true {
                let batch = pending.withLock { queued -> [String] in
                    let batch = Array(queued.prefix(50))
                    queued.removeFirst(batch.count)
                    return batch
                }
                if batch.isEmpty { break }
                do {
                    try await bus.notify(Self.channel, batch)
                } catch {
                    logger.warning(
                        "could not relay live events to other instances",
                        metadata: ["count": "\(batch.count)", "error": "\(error)"])
                }
            }
        }
    }
}
