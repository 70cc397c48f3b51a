import Foundation
import LifeSignalCore
import Logging

/// What `buildApplication` takes from outside its configuration: the clock, ids and
/// randomness, how sign-in codes go out, where metrics and logs go. `.live` is what
/// `lifesignal serve` runs on; a test replaces the parts it drives (a clock that moves only
/// when told, a code book instead of texts) and gets everything else exactly as served.
public struct AppDependencies: Sendable {
    /// A clock that moves only when told, with `POST /test/clock` to move it. nil: the real
    /// clock (or, with `--test-clock`, one the application makes).
    public var clock: ManualClock?
    /// The service's ids; nil: time-ordered random UUIDs.
    public var uuid: (@Sendable () -> UUID)?
    /// The service's random bytes (codes, tokens); nil: the system's secure generator.
    public var randomBytes: (@Sendable (Int) -> [UInt8])?
    /// How sign-in codes go out; nil: the configuration's sender (Twilio, or the terminal in
    /// development).
    public var codeSender: SignInCodeSender?
    /// The metrics registry `GET /metrics` shows; nil: one of the application's own
    /// (`lifesignal serve` passes the one it bootstrapped swift-metrics with).
    public var telemetry: Telemetry?
    /// The logger of the server and the service; nil: `lifesignal` at the configured level.
    public var logger: Logger?
    /// The service's settings, for what no flag reaches (abuse limits, which channel
    /// addresses are accepted); nil: derived from the configuration.
    public var serviceConfiguration: ServiceConfiguration?

    public init(
        clock: ManualClock? = nil, uuid: (@Sendable () -> UUID)? = nil, randomBytes: (@Sendable (Int) -> [UInt8])? = nil,
        codeSender: SignInCodeSender? = nil, telemetry: Telemetry? = nil, logger: Logger? = nil,
        serviceConfiguration: ServiceConfiguration? = nil
    ) {
        self.clock = clock
        self.uuid = uuid
        self.randomBytes = randomBytes
        self.codeSender = codeSender
        self.telemetry = telemetry
        self.logger = logger
        self.serviceConfiguration = serviceConfiguration
    }

    /// Everything real, everything from the configuration.
    public static var live: AppDependencies { AppDependencies() }
}
