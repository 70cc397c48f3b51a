import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The connection pool behind ``PostgresDatabase``, and the way back after an outage.
///
/// postgres-nio's pool cannot say whether a lease waits because every connection is busy or
/// because the server is gone, and after an outage it reconnects with a backoff that grows
/// with the outage (a request waiting when the server came back after 35 s still failed, and
/// the first success came 8 s later). So this type decides both itself:
///
/// - **Down or busy?** A lease still waiting after ``suspectAfter`` asks the server directly
///   (one connection, bounded by `connect_timeout`, shared by every waiting lease). A server
///   that does not answer is *down*: the wait fails at once as unavailable. One that answers
///   only has a busy pool: the wait goes on, up to the database's lease timeout.
/// - **Back at once.** While down, a reviver probes every ``probeInterval``; the moment a probe
///   connects, a fresh pool (a new *generation*) replaces the old one. Leases still waiting on
///   the old pool move to the new one, so a request already waiting when the server comes back
///   succeeds. The old pool is retired after ``retireAfter`` (work still on its connections
///   finishes; statements are bounded by `statement_timeout`).
final class PostgresPool: Sendable {
    struct Generation: Sendable {
        let client: PostgresClient
        let number: Int
    }

    /// How long a lease waits before asking whether the server is there at all.
    static let suspectAfter = Duration.seconds(1)
    static let probeInterval = Duration.milliseconds(250)
    static let retireAfter = Duration.seconds(40)

    private struct State {
        var current: Generation
        var runTasks: [Int: Task<Void, Never>] = [:]
        /// The one direct check of the server going on, shared by every lease that asks.
        var probe: Task<Bool, Never>?
        /// Running while the server is known to be down; it swaps in a new pool when back.
        var reviver: Task<Void, Never>?
        var closed = false
    }

    let url: PostgresURL
    /// While the server is down: how long a lease waits for it to come back before failing
    /// (2 s unless a test wants to see a lease span the way back).
    let downWait: Duration
    private let logger: Logger
    private let state: Mutex<State>

    init(url: PostgresURL, logger: Logger, downWait: Duration = .seconds(2)) {
        self.url = url
        self.downWait = downWait
        self.logger = logger
        let client = PostgresClient(configuration: url.clientConfiguration, backgroundLogger: logger)
        var state = State(current: Generation(client: client, number: 0))
        state.runTasks[0] = Task { await client.run() }
        self.state = Mutex(state)
    }

    var current: Generation { state.withLock { $0.current } }
    /// Whether the server is known to be unreachable right now (a reviver is waiting for it).
    var isDown: Bool { state.withLock { $0.reviver != nil } }

    /// Whether a single direct connection to the server opens within `connect_timeout`. Every
    /// caller asking while a check is going on shares its answer.
    func serverAnswers() async -> Bool {
        let task = state.withLock { state -> Task<Bool, Never> in
            if let probe = state.probe { return probe }
            let probe = Task { [url, logger] in await Self.connects(url, logger: logger) }
            state.probe = probe
            return probe
        }
        let answer = await task.value
        state.withLock { if $0.probe == task { $0.probe = nil } }
        return answer
    }

    /// Notes that the server did not answer: the reviver starts (once) and swaps in a fresh pool
    /// as soon as a connection opens again.
    func markDown(_ reason: String) {
        let started = state.withLock { state -> Bool in
            guard !state.closed, state.reviver == nil else { return false }
            state.reviver = Task { [weak self] in await self?.revive() }
            return true
        }
        if started { logger.warning("PostgreSQL unreachable; waiting for it to come back", metadata: ["reason": "\(reason)"]) }
    }

    private func revive() async {
        let started = ContinuousClock.now
        while !Task.isCancelled {
            if await Self.connects(url, logger: logger) {
                let client = PostgresClient(configuration: url.clientConfiguration, backgroundLogger: logger)
                let retired = state.withLock { state -> (Int, Task<Void, Never>?)? in
                    guard !state.closed else { return nil }
                    let old = state.current.number
                    state.current = Generation(client: client, number: old + 1)
                    state.runTasks[old + 1] = Task { await client.run() }
                    state.reviver = nil
                    return (old, state.runTasks[old])
                }
                guard let (old, oldTask) = retired else { return }
                logger.notice(
                    "PostgreSQL is back; a fresh connection pool replaces the old one",
                    metadata: ["down_ms": "\((ContinuousClock.now - started).milliseconds)"])
                Task { [weak self] in
                    try? await Task.sleep(for: Self.retireAfter)
                    oldTask?.cancel()
                    await oldTask?.value
                    self?.state.withLock { _ = $0.runTasks.removeValue(forKey: old) }
                }
                return
            }
            try? await Task.sleep(for: Self.probeInterval)
        }
    }

    private static func connects(_ url: PostgresURL, logger: Logger) async -> Bool {
        guard let configuration = try? url.connectionConfiguration() else { return false }
        do {
            let connection = try await withDeadline(url.connectTimeout, "probing \(url.displayName)") {
                try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            }
            try? await connection.close()
            return true
        } catch {
            return false
        }
    }

    /// Ends every pool and the reviver, and waits for them.
    func close() async {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            state.closed = true
            state.reviver?.cancel()
            state.reviver = nil
            defer { state.runTasks = [:] }
            return Array(state.runTasks.values)
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }
}

extension Duration {
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
