import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalRules
import Logging

/// Everything the server reads at start, in one typed value: flags, then environment
/// variables (`LIFESIGNAL_*`), then these defaults, which run the whole product on
/// `./lifesignal.sqlite` with the `log` delivery channel.
public struct AppConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// A SQLite file path, or a `postgres://` URL.
    public var database = "./lifesignal.sqlite"
    /// Where a person's notifications go when they registered no channel: as chosen
    /// (`--default-channel`), else by mode: `log` in development, a text to their verified
    /// number in production.
    public var defaultChannel: ChannelKind {
        get { chosenDefaultChannel ?? (development ? .log : .sms) }
        set { chosenDefaultChannel = newValue }
    }
    var chosenDefaultChannel: ChannelKind?
    /// The address people reach the web app at, for links in messages.
    public var publicBaseURL: String?
    public var logLevel: Logger.Level = .info
    /// Test mode: the server's clock stands still and `POST /test/clock` moves it. Never in production.
    public var testClock = false
    /// Run the escalation engine and delivery workers in this process.
    public var runEngine = true
    /// A name for this instance in the engine's heartbeats and the instances' list (host and process).
    public var instanceName = ProcessInfo.processInfo.hostName + ":" + String(ProcessInfo.processInfo.processIdentifier)
    /// This instance's stable identity (`--instance-id`, `LIFESIGNAL_INSTANCE_ID`); nil: see
    /// ``InstanceIdentity/resolve(_:bootID:)`` (beside a SQLite file, or made for the run).
    public var instanceID: String?

    /// The escalation policy: repeats of an unanswered alert, and how long "I'm on it" holds
    /// (`LIFESIGNAL_ESCALATION_REPEAT_MINUTES`, `_ESCALATION_MAX_NOTIFICATIONS`,
    /// `_SOS_MAX_NOTIFICATIONS`, `_CLAIM_MINUTES`). Checked by ``problems()``.
    public var escalation = EscalationPolicy.default
    /// Sends in flight at once per server (`LIFESIGNAL_DELIVERY_CONCURRENCY`) and attempts on
    /// one channel before falling back to the next (`LIFESIGNAL_DELIVERY_MAX_ATTEMPTS`).
    public var deliveryConcurrency = ServiceConfiguration().deliveryConcurrency
    public var deliveryMaxAttempts = ServiceConfiguration().deliveryMaxAttempts
    /// Calls handed to Twilio per second by this instance (`LIFESIGNAL_TWILIO_CALLS_PER_SECOND`):
    /// the account's CPS, 1 unless the operator had it raised. Instances sharing one account
    /// share its CPS: give each its part.
    public var callsPerSecond = ServiceConfiguration().callsPerSecond

    /// The delivery channels' settings (see `ChannelSettings`).
    public var channels = ChannelSettings()
    /// Log format, the delivery-stall limit of `/health`, retention (see `ObservabilitySettings`).
    public var observability = ObservabilitySettings()

    // Development or production (see AppConfiguration+Production.swift).
    /// Development mode (`--dev`, `LIFESIGNAL_DEV=1`): codes and the log channel's messages
    /// are printed to the terminal, labelled; without it a real code sender is required.
    public var development = false
    /// Proxies whose `Forwarded` / `X-Forwarded-For` are believed (`LIFESIGNAL_TRUSTED_PROXIES`).
    public var trustedProxies: [IPNetwork] = []
    /// The server's secret (see ``ServerKey``); nil: one random key for this process.
    public var serverKey: [UInt8]?
    /// Seal the timeline heads written before heads were sealed, at this start: on the first
    /// start with a new server key, or when the operator asks (`LIFESIGNAL_SEAL_EXISTING_HISTORY=1`).
    public var sealExistingHistory = false

    public init() {}

    /// Fills unset values from `LIFESIGNAL_HOST`, `LIFESIGNAL_PORT`, `LIFESIGNAL_DATABASE`,
    /// `LIFESIGNAL_DEFAULT_CHANNEL`, `LIFESIGNAL_PUBLIC_URL`, `LIFESIGNAL_LOG_LEVEL`.
    public static func fromEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment) throws -> AppConfiguration {
        var config = AppConfiguration()
        if let host = env["LIFESIGNAL_HOST"] { config.host = host }
        if let port = env["LIFESIGNAL_PORT"] {
            guard let value = Int(port), (1...65535).contains(value) else {
                throw ConfigurationError("LIFESIGNAL_PORT must be a port number, got \(port)")
            }
            config.port = value
        }
        if let database = env["LIFESIGNAL_DATABASE"] { config.database = database }
        if let id = env["LIFESIGNAL_INSTANCE_ID"], !id.isEmpty { config.instanceID = id }
        if let channel = env["LIFESIGNAL_DEFAULT_CHANNEL"] {
            guard let kind = ChannelKind(rawValue: channel) else {
                throw ConfigurationError("LIFESIGNAL_DEFAULT_CHANNEL must be one of \(ChannelKind.allCases.map(\.rawValue))")
            }
            config.defaultChannel = kind
        }
        if let url = env["LIFESIGNAL_PUBLIC_URL"] { config.publicBaseURL = url }
        if let level = env["LIFESIGNAL_LOG_LEVEL"] {
            guard let value = Logger.Level(rawValue: level) else {
                throw ConfigurationError("LIFESIGNAL_LOG_LEVEL must be one of trace, debug, info, notice, warning, error, critical")
            }
            config.logLevel = value
        }
        try config.readProductionSettings(env)
        try config.readPolicy(env)
        config.channels = ChannelSettings(environment: env)
        config.observability = try .fromEnvironment(env)
        return config
    }

    /// What the service is told of these settings.
    public var serviceConfiguration: ServiceConfiguration {
        var service = ServiceConfiguration(escalation: escalation, defaultChannel: defaultChannel, publicBaseURL: baseURL)
        service.deliveryConcurrency = deliveryConcurrency
        service.deliveryMaxAttempts = deliveryMaxAttempts
        service.callsPerSecond = callsPerSecond
        if let serverKey { service.serverKey = serverKey }
        service.allowsLogChannels = development
        return service
    }

    var baseURL: String { publicBaseURL ?? "http://\(host == "0.0.0.0" ? "localhost" : host):\(port)" }
}

public struct ConfigurationError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension AppConfiguration {
    /// The escalation policy and delivery limits from the environment: whole numbers, or a
    /// clear error; their ranges are checked with the other problems.
    mutating func readPolicy(_ env: [String: String]) throws {
        func number(_ name: String) throws -> Int? {
            guard let text = env["LIFESIGNAL_\(name)"], !text.isEmpty else { return nil }
            guard let value = Int(text) else { throw ConfigurationError("LIFESIGNAL_\(name) must be a whole number, got \(text)") }
            return value
        }
        if let minutes = try number("ESCALATION_REPEAT_MINUTES") { escalation.repeatInterval = TimeInterval(minutes) * 60 }
        if let count = try number("ESCALATION_MAX_NOTIFICATIONS") { escalation.maxNotifications = count }
        if let count = try number("SOS_MAX_NOTIFICATIONS") { escalation.maxAlertNotifications = count }
        if let minutes = try number("CLAIM_MINUTES") { escalation.claimDuration = TimeInterval(minutes) * 60 }
        if let count = try number("DELIVERY_CONCURRENCY") { deliveryConcurrency = count }
        if let count = try number("DELIVERY_MAX_ATTEMPTS") { deliveryMaxAttempts = count }
        if let count = try number("TWILIO_CALLS_PER_SECOND") { callsPerSecond = count }
    }

    /// The policy's values outside the ranges a safety service can keep its promises in.
    func policyProblems() -> [String] {
        var problems: [String] = []
        func check(_ value: Int, _ range: ClosedRange<Int>, _ name: String, _ why: String) {
            if !range.contains(value) {
                problems.append("LIFESIGNAL_\(name) is \(value): it must be between \(range.lowerBound) and \(range.upperBound) (\(why))")
            }
        }
        check(Int(escalation.repeatInterval / 60), 1...240, "ESCALATION_REPEAT_MINUTES", "minutes between repeats of an unanswered alert")
        check(escalation.maxNotifications, 1...100, "ESCALATION_MAX_NOTIFICATIONS", "rounds a missed check-in sends")
        check(escalation.maxAlertNotifications, 1...1000, "SOS_MAX_NOTIFICATIONS", "rounds an SOS sends until someone is on it")
        check(Int(escalation.claimDuration / 60), 5...1440, "CLAIM_MINUTES", "how long \"I'm on it\" holds")
        check(deliveryConcurrency, 4...1024, "DELIVERY_CONCURRENCY", "sends in flight at once")
        check(deliveryMaxAttempts, 1...20, "DELIVERY_MAX_ATTEMPTS", "attempts on one channel before the next")
        check(callsPerSecond, 1...1000, "TWILIO_CALLS_PER_SECOND", "calls Twilio takes per second: the account's CPS")
        return problems
    }
}
