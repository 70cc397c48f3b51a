import AsyncHTTPClient
import Testing

@testable import LifeSignalDelivery

@Suite struct PinnedClientsTests {
    static let group = ObjectIdentifier(HTTPClient.shared.eventLoopGroup as AnyObject)

    static func key(_ host: String, address: String) -> PinnedClients.Key {
        PinnedClients.Key(group: group, scheme: "https", host: host, port: nil, dnsOverride: [host: address])
    }

    static func make() -> HTTPClient { HTTPClient(eventLoopGroup: HTTPClient.shared.eventLoopGroup) }

    @Test func aClientServesOneNamePinnedToOneAddress() async throws {
        let pool = PinnedClients(capacity: 2, idleSeconds: 30)
        let first = pool.lease(Self.key("hooks.example", address: "93.184.216.34"), make: Self.make)
        await pool.release(first)
        let again = pool.lease(Self.key("hooks.example", address: "93.184.216.34"), make: Self.make)
        #expect(again.pooled && again.client === first.client)
        // The name now resolves elsewhere: never the connection made for the old address.
        let moved = pool.lease(Self.key("hooks.example", address: "93.184.216.35"), make: Self.make)
        #expect(moved.pooled && moved.client !== first.client)
        #expect(pool.count == 2)
        // Full, nothing idle: a client of its own for this call, shut down after it.
        let other = pool.lease(Self.key("other.example", address: "93.184.216.36"), make: Self.make)
        #expect(!other.pooled && other.client !== first.client && other.client !== moved.client)
        await pool.release(other)
        #expect(pool.count == 2)
        await pool.release(again)
        await pool.release(moved)
        // Full, one idle: the least recently used idle client makes room.
        let third = pool.lease(Self.key("third.example", address: "93.184.216.37"), make: Self.make)
        #expect(third.pooled && pool.count == 2)
        await pool.release(third)
        await pool.shutDownAll()
    }
}
