import ArgumentParser
import AsyncHTTPClient
import Foundation
import Hummingbird
import LifeSignalDelivery
import LifeSignalModels
import Synchronization

enum BenchChannel: String, ExpressibleByArgument, Sendable {
    case log, webhook
}

/// A channel, timing each attempt once the channel has taken the message (for a webhook: the
/// receiver answered 2xx).
struct TimedChannel<Inner: ChannelAdapter>: ChannelAdapter {
    let inner: Inner
    let recorder: AttemptRecorder
    var kind: ChannelKind { inner.kind }

    func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
        let receipt = try await inner.send(message)
        recorder.record(message)
        return receipt
    }
}

/// The far end of the bench's webhooks, in its own process: checks each call's signature as a
/// receiver must (HMAC over the raw body, timestamp within 5 minutes), answers 200 (401 when
/// the signature is wrong), and reports its tally on `GET /tally`.
enum WebhookReceiver {
    static func serve(port: Int, secret: String) async throws {
        let tally = Tally()
        let router = Router(context: BasicRequestContext.self)
        router.get("/health") { _, _ in HTTPResponse.Status.ok }
        router.get("/tally") { _, _ in
            "\(tally.verified.load(ordering: .relaxed)) \(tally.rejected.load(ordering: .relaxed))"
        }
        router.post("/hook") { request, _ -> HTTPResponse.Status in
            let body = try await request.body.collect(upTo: 1 << 20)
            let name = WebhookSignature.headerName.lowercased()
            let header = request.headers.first(where: { $0.name.canonicalName == name })?.value ?? ""
            guard WebhookSignature.verify(header: header, body: Array(body.readableBytesView), secret: secret, now: Date()) else {
                tally.rejected.add(1, ordering: .relaxed)
                return .unauthorized
            }
            tally.verified.add(1, ordering: .relaxed)
            return .ok
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }

    final class Tally: Sendable {
        let verified = Atomic<Int>(0)
        let rejected = Atomic<Int>(0)
    }

    static func tally(port: Int) async throws -> (verified: Int, rejected: Int) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/tally"), timeout: .seconds(5))
        let text = String(buffer: try await response.body.collect(upTo: 1024))
        let parts = text.split(separator: " ").compactMap { Int($0) }
        guard parts.count == 2 else { throw BenchError("the webhook receiver answered \(text)") }
        return (parts[0], parts[1])
    }
}

/// When each alert (a responder's "incident opened") and each reminder was first attempted,
/// relative to the due moment.
final class AttemptRecorder: Sendable {
    private struct State {
        var start: ContinuousClock.Instant?
        var alerts: [NotificationID: Double] = [:]
        var reminders: [NotificationID: Double] = [:]
        var other = 0
    }

    /// First attempts of one kind: how many, percentiles and the last (ms), when the last came (s).
    struct Latency {
        var count = 0
        var p50 = 0.0
        var p99 = 0.0
        var max = 0.0
        var allDone = 0.0

        init(_ firsts: [Double]) {
            let sorted = firsts.sorted()
            func pct(_ p: Double) -> Double {
                sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)] * 1000
            }
            count = sorted.count
            p50 = pct(0.5)
            p99 = pct(0.99)
            max = (sorted.last ?? 0) * 1000
            allDone = sorted.last ?? 0
        }
    }

    private let state = Mutex(State())
    let expectedAlerts: Int
    let expectedReminders: Int

    init(expectedAlerts: Int, expectedReminders: Int = 0) {
        self.expectedAlerts = expectedAlerts
        self.expectedReminders = expectedReminders
    }

    func start(at instant: ContinuousClock.Instant) { state.withLock { $0.start = instant } }

    func record(_ message: OutgoingMessage) {
        let now = ContinuousClock.now
        state.withLock { s in
            guard let start = s.start else { return }
            let t = EscalationBench.seconds(now - start)
            switch message.kind {
            case .incidentOpened: if s.alerts[message.notificationID] == nil { s.alerts[message.notificationID] = t }
            case .reminder: if s.reminders[message.notificationID] == nil { s.reminders[message.notificationID] = t }
            default: s.other += 1
            }
        }
    }

    var isDone: Bool {
        state.withLock { $0.alerts.count >= expectedAlerts && $0.reminders.count >= expectedReminders }
    }

    func summary() -> (alerts: Latency, reminders: Latency, otherAttempts: Int) {
        state.withLock { s in (Latency(Array(s.alerts.values)), Latency(Array(s.reminders.values)), s.other) }
    }
}
