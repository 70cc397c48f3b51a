import Foundation
import LifeSignalAPI
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels
import LifeSignalTestSupport
import Testing

@Suite("CheckInClient and its offline queue")
struct CheckInClientTests {
    @Test func aCheckInIsRecordedOnceEvenWhenSentTwice() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let (ada, _) = try await Device.signUp(world, server: server, first: "Ada", phone: "+447700900301")
            let checkIns = ada.checkIns()
            let id = CheckInID(UUID())
            let clientAt = ISODate.parse("2026-11-21T07:59:00Z")!
            guard case let .recorded(first) = try await checkIns.checkIn(id: id, clientAt: clientAt) else {
                Issue.record("expected the check-in to be recorded")
                return
            }
            #expect(first.duplicate == false)
            #expect(first.checkIn.at == world.clock.now)
            #expect(first.checkIn.clientAt == clientAt)
            #expect(first.status.state == .ok)
            #expect(first.status.deadline == world.clock.now.addingTimeInterval(86400))

            guard case let .recorded(again) = try await checkIns.checkIn(id: id, clientAt: clientAt) else {
                Issue.record("expected the repeat to be answered")
                return
            }
            #expect(again.duplicate)
            #expect(try await checkIns.history(before: nil, limit: 10).map(\.id) == [id])
            #expect(try await checkIns.status().lastCheckInAt == world.clock.now)
        }
    }

    @Test func offlineCheckInsAreQueuedWithTheirIdAndFlushedOnceTheServerIsBack() async throws {
        let world = try await TestWorld()
        let queueFile = world.directory.appendingPathComponent("config/pending-check-ins.json")
        try await world.serve { server in
            let (ada, _) = try await Device.signUp(world, server: server, first: "Ada", phone: "+447700900302")

            // The same person, with no network.
            let offline = Device(server: unreachableServer, tokens: ada.tokens).checkIns(queue: CheckInQueue(file: queueFile))
            let first = CheckInID(UUID())
            let second = CheckInID(UUID())
            #expect(
                try await offline.checkIn(id: first, clientAt: world.clock.now)
                    == .queued(PendingCheckIn(id: first, clientAt: world.clock.now)))
            _ = try await offline.checkIn(id: second, clientAt: world.clock.now)
            #expect(await offline.pending().map(\.id) == [first, second])
            let failure = try await #require(throws: APIError.self) { try await offline.flushPending() }
            #expect(failure.isOffline)
            let attributes = try FileManager.default.attributesOfItem(atPath: queueFile.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

            // Later, another launch: the queue is read back from its file and sent in order.
            let online = ada.checkIns(queue: CheckInQueue(file: queueFile))
            #expect(await online.pending().map(\.id) == [first, second])
            let sent = try await online.flushPending()
            #expect(sent.map(\.checkIn.id) == [first, second])
            #expect(sent.allSatisfy { !$0.duplicate })
            #expect(await online.pending().isEmpty)
            #expect(try await online.flushPending().isEmpty)
            #expect(try await online.history(before: nil, limit: 10).map(\.id).sorted() == [first, second].sorted())

            // Had the first attempt reached the server after all, the resend changes nothing.
            guard case let .recorded(resent) = try await online.checkIn(id: first, clientAt: world.clock.now) else {
                Issue.record("expected the resend to be answered")
                return
            }
            #expect(resent.duplicate)
            #expect(try await online.history(before: nil, limit: 10).count == 2)
        }
    }

    @Test func queuedCheckInsGoFirstWhenTheNextCheckInReachesTheServer() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let (ada, _) = try await Device.signUp(world, server: server, first: "Ada", phone: "+447700900303")
            let queue = CheckInQueue()
            let queued = CheckInID(UUID())
            _ = try await Device(server: unreachableServer, tokens: ada.tokens).checkIns(queue: queue)
                .checkIn(id: queued, clientAt: world.clock.now)
            let now = CheckInID(UUID())
            guard case .recorded = try await ada.checkIns(queue: queue).checkIn(id: now, clientAt: world.clock.now) else {
                Issue.record("expected the check-in to be recorded")
                return
            }
            #expect(await queue.pending.isEmpty)
            #expect(Set(try await ada.checkIns().history(before: nil, limit: 10).map(\.id)) == [queued, now])
        }
    }
}
