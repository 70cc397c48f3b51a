import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// HTTP clients for user-supplied URLs, kept between calls so that calls to the same endpoint
/// reuse its connections instead of opening one per call.
///
/// A client serves one name pinned to one checked address (its DNS override) on one event loop
/// group: the key holds all of it, so a connection made for one name or address never carries
/// a request for another, and a name that now resolves elsewhere gets a client of its own. The
/// address is still checked before every call (``PrivateNetworkGuard``); only the connection
/// to the address that check gave is reused.
///
/// At most `capacity` clients are kept; past it, the least recently used idle one is shut
/// down, and when none is idle the call gets a client of its own, shut down after it (what
/// every call did before). Clients unused for `idleSeconds` are shut down on the next lease.
/// The pool is process-wide and never deinitialised.
final class PinnedClients: Sendable {
    struct Key: Hashable, Sendable {
        var group: ObjectIdentifier
        var scheme: String
        var host: String
        var port: Int?
        var dnsOverride: [String: String]
    }

    /// A client for one call; `pooled` false: the caller shuts it down after the call.
    struct Lease: Sendable {
        var key: Key
        var client: HTTPClient
        var pooled: Bool
    }

    private struct Entry {
        var client: HTTPClient
        var inFlight: Int
        var lastUsed: ContinuousClock.Instant
    }

    static let shared = PinnedClients(capacity: 256, idleSeconds: 30)

    private let entries = Mutex([Key: Entry]())
    let capacity: Int
    let idleSeconds: Int

    init(capacity: Int, idleSeconds: Int) {
        self.capacity = capacity
        self.idleSeconds = idleSeconds
    }

    func lease(_ key: Key, make: () -> HTTPClient) -> Lease {
        let now = ContinuousClock.now
        var retired: [HTTPClient] = []
        defer { Self.shutDown(retired) }
        return entries.withLock { entries in
            if var entry = entries[key] {
                entry.inFlight += 1
                entry.lastUsed = now
                entries[key] = entry
                return Lease(key: key, client: entry.client, pooled: true)
            }
            // Idle too long: shut down.
            for (k, e) in entries where e.inFlight == 0 && now - e.lastUsed > .seconds(idleSeconds) {
                retired.append(e.client)
                entries[k] = nil
            }
            if entries.count >= capacity,
                let oldest = entries.filter({ $0.value.inFlight == 0 }).min(by: { $0.value.lastUsed < $1.value.lastUsed })
            {
                retired.append(oldest.value.client)
                entries[oldest.key] = nil
            }
            let client = make()
            guard entries.count < capacity else { return Lease(key: key, client: client, pooled: false) }
            entries[key] = Entry(client: client, inFlight: 1, lastUsed: now)
            return Lease(key: key, client: client, pooled: true)
        }
    }

    /// After the call: a pooled client stays for the next, a one-off is shut down.
    func release(_ lease: Lease) async {
        guard lease.pooled else {
            try? await lease.client.shutdown()
            return
        }
        let now = ContinuousClock.now
        entries.withLock { entries in
            guard var entry = entries[lease.key], entry.client === lease.client else { return }
            entry.inFlight -= 1
            entry.lastUsed = now
            entries[lease.key] = entry
        }
    }

    var count: Int { entries.withLock { $0.count } }

    /// Shuts every kept client down (a pool made for a test).
    func shutDownAll() async {
        let clients = entries.withLock { entries in
            defer { entries.removeAll() }
            return entries.values.map(\.client)
        }
        for client in clients { try? await client.shutdown() }
    }

    private static func shutDown(_ clients: [HTTPClient]) {
        guard !clients.isEmpty else { return }
        Task {
            for client in clients { try? await client.shutdown() }
        }
    }
}
