import Foundation
import LifeSignalCore

/// The server's logging, health and retention settings, part of `AppConfiguration`.
public struct ObservabilitySettings: Sendable {
    /// `text` or `json` (one object per line). Env: `LIFESIGNAL_LOG_FORMAT`.
    public var logFormat: LogFormat = .text
    /// `/health` turns red when the oldest due delivery has waited longer than this, or the
    /// outbox worker has not finished a round for this long. Env: `LIFESIGNAL_DELIVERY_STALL_SECONDS`.
    public var deliveryStallSeconds: TimeInterval = 120
    /// How long `/health` and `/ready` wait for their checks before answering "database not
    /// answering" (an outside monitor wants an answer within a second, whatever the database does).
    public var healthProbeLimit: Duration = .milliseconds(800)
    /// Prune old notifications, expired codes and stale rate-limit rows in the background.
    /// Env: `LIFESIGNAL_RETENTION=off` turns it off.
    public var retention = true

    public init() {}

    /// Reads `LIFESIGNAL_LOG_FORMAT`, `LIFESIGNAL_DELIVERY_STALL_SECONDS` and `LIFESIGNAL_RETENTION`.
    public static func fromEnvironment(_ env: [String: String]) throws -> ObservabilitySettings {
        var settings = ObservabilitySettings()
        if let format = env["LIFESIGNAL_LOG_FORMAT"] {
            guard let value = LogFormat(rawValue: format) else {
                throw ConfigurationError("LIFESIGNAL_LOG_FORMAT must be text or json, got \(format)")
            }
            settings.logFormat = value
        }
        if let stall = env["LIFESIGNAL_DELIVERY_STALL_SECONDS"] {
            guard let value = TimeInterval(stall), value >= 1 else {
                throw ConfigurationError("LIFESIGNAL_DELIVERY_STALL_SECONDS must be a number of seconds ≥ 1, got \(stall)")
            }
            settings.deliveryStallSeconds = value
        }
        if let retention = env["LIFESIGNAL_RETENTION"] {
            switch retention.lowercased() {
            case "on", "1", "true": settings.retention = true
            case "off", "0", "false": settings.retention = false
            default: throw ConfigurationError("LIFESIGNAL_RETENTION must be on or off, got \(retention)")
            }
        }
        return settings
    }
}
