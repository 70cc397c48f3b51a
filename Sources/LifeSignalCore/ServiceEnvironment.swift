import Foundation
import Logging
import Synchronization

/// The side effects the service depends on: time, identifiers, randomness and the log.
/// Tests pass a manual clock and seeded generators; nothing in the core calls `Date()`.
public struct ServiceEnvironment: Sendable {
    public var now: @Sendable () -> Date
    public var uuid: @Sendable () -> UUID
    public var randomBytes: @Sendable (Int) -> [UInt8]
    public var logger: Logger
    /// Where the service's metrics go; nowhere unless the server sets a factory.
    public var metrics: LifeSignalMetrics = .disabled
    /// The real time, for what happens between processes (instances' heartbeats), which the
    /// product's test clock must not move: a test clock that jumps an hour must not make
    /// every peer look dead. Tests of the peer watch replace it.
    public var wallClock: @Sendable () -> Date = { Date() }

    public init(
        now: @escaping @Sendable () -> Date, uuid: @escaping @Sendable () -> UUID,
        randomBytes: @escaping @Sendable (Int) -> [UInt8], logger: Logger
    ) {
        self.now = now
        self.uuid = uuid
        self.randomBytes = randomBytes
        self.logger = logger
    }

    /// The real clock, time-ordered random UUIDs (version 7) and the system's secure random generator.
    public static func live(logger: Logger) -> ServiceEnvironment {
        ServiceEnvironment(
            now: { Date() },
            uuid: {
                var random = SecureRandomPool()
                return UUID.timeOrdered(at: Date(), using: &random)
            },
            randomBytes: { count in
                var generator = SystemRandomNumberGenerator()
                return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            },
            logger: logger)
    }

    /// A uniformly random integer in `0..<upperBound` drawn from `randomBytes`.
    func randomInt(below upperBound: UInt64) -> UInt64 {
        // Rejection sampling keeps the distribution uniform.
        let limit = UInt64.max - (UInt64.max % upperBound)
        while true {
            let value = randomBytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if value < limit { return value % upperBound }
        }
    }
}

/// A clock that only moves when told: for tests and the server's test mode.
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    public init(_ start: Date) { current = Mutex(start) }

    public var now: Date { current.withLock { $0 } }

    public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }

    public func set(_ date: Date) { current.withLock { $0 = date } }
}
