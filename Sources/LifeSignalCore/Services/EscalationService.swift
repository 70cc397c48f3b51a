import Foundation
import Logging
import ServiceLifecycle

/// Runs the escalation engine in the server's `ServiceGroup`: a pass every `interval`,
/// stopping cleanly on graceful shutdown. A failed pass is logged and retried; the
/// heartbeat it did not write is what tells a monitor that alerting stalled.
public struct EscalationService: Service {
    public let engine: EscalationEngine
    public var interval: Duration

    public init(engine: EscalationEngine, interval: Duration = .seconds(1)) {
        self.engine = engine
        self.interval = interval
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await tellPeopleWhatTheirLinksGrant()
            while !Task.isCancelled {
                do {
                    let pass = try await engine.runPass()
                    if pass.total > 0 {
                        engine.core.logger.info(
                            "escalation pass",
                            metadata: Logger.Metadata(counts: pass.counts))
                    }
                } catch {
                    engine.core.logger.error("escalation pass failed", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// Links made before consent existed are kept; each side is told once, at the first start
    /// after the upgrade, what their link grants. Idempotent across instances (step keys).
    private func tellPeopleWhatTheirLinksGrant() async {
        do {
            while !Task.isCancelled, try await Contacts(engine.core).sendConsentNotices() > 0 {}
        } catch {
            engine.core.logger.error("consent notices failed", metadata: ["error": "\(error)"])
        }
    }
}
