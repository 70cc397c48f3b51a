import Foundation
import LifeSignalModels
import Testing

@_spi(Testing) @testable import LifeSignalStore

/// The store contract for the hash-chained timeline: every test runs against SQLite (a real file) and, when
/// `LIFESIGNAL_TEST_POSTGRES_URL` is set, against PostgreSQL (a fresh database per test).
@Suite("Store contract: timeline", .timeLimit(.minutes(2)))
struct StoreTimelineTests {
    // MARK: Timeline

    @Test("timeline entries chain: entry n's hash is entry n+1's previous hash", arguments: Backend.all)
    func timelineChain(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let bob = try await insertUser(store)
            var appended: [TimelineEntry] = []
            for index in 1...5 {
                appended.append(
                    try await store.write {
                        try await $0.timeline.append(ann.id, at: at(Double(index)), kind: "check_in", summary: "s\(index)", detail: "{}")
                    })
            }
            _ = try await store.write { try await $0.timeline.append(bob.id, at: at(1), kind: "k", summary: "s", detail: "d") }
            let entries = try await store.read { try await $0.timeline.entries(of: ann.id) }
            #expect(entries == appended)
            #expect(entries.map(\.sequence) == [1, 2, 3, 4, 5])
            #expect(entries.first?.previousHash == TimelineEntry.genesisHash)
            for (entry, next) in zip(entries, entries.dropFirst()) {
                #expect(entry.hash == next.previousHash)
                #expect(entry.hash.count == 64)
            }
            #expect(Set(entries.map(\.hash)).count == 5)
            #expect(try await store.read { try await $0.timeline.entries(of: ann.id, after: 3) }.map(\.sequence) == [4, 5])
            #expect(try await store.read { try await $0.timeline.entries(of: bob.id) }.first?.previousHash == TimelineEntry.genesisHash)
            await expectConstraint("unknown user") {
                try await store.write { _ = try await $0.timeline.append(UserID(UUID()), at: t0, kind: "k", summary: "s", detail: "d") }
            }
        }
    }

    @Test("several appends in one transaction chain on, for several users; a rolled-back one leaves the head", arguments: Backend.all)
    func timelineAppendsInOneTransaction(_ backend: Backend) async throws {
        struct Refused: Error {}
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let bob = try await insertUser(store)
            _ = try await store.write { try await $0.timeline.append(ann.id, at: at(0), kind: "k", summary: "first", detail: "") }
            try await store.write { tx in
                for index in 1...3 {
                    _ = try await tx.timeline.append(ann.id, at: at(Double(index)), kind: "k", summary: "ann \(index)", detail: "")
                    _ = try await tx.timeline.append(bob.id, at: at(Double(index)), kind: "k", summary: "bob \(index)", detail: "")
                }
            }
            await #expect(throws: Refused.self) {
                try await store.write { tx in
                    _ = try await tx.timeline.append(ann.id, at: at(9), kind: "k", summary: "rolled back", detail: "")
                    throw Refused()
                }
            }
            let next = try await store.write { try await $0.timeline.append(ann.id, at: at(10), kind: "k", summary: "next", detail: "") }
            let anns = try await store.read { try await $0.timeline.entries(of: ann.id) }
            #expect(anns.map(\.summary) == ["first", "ann 1", "ann 2", "ann 3", "next"])
            #expect(anns.map(\.sequence) == [1, 2, 3, 4, 5])
            #expect(next.previousHash == anns[3].hash)
            #expect(zip(anns, anns.dropFirst()).allSatisfy { $0.hash == $1.previousHash })
            let bobs = try await store.read { try await $0.timeline.entries(of: bob.id) }
            #expect(bobs.map(\.sequence) == [1, 2, 3])
            #expect(bobs.first?.previousHash == TimelineEntry.genesisHash)
            #expect(zip(bobs, bobs.dropFirst()).allSatisfy { $0.hash == $1.previousHash })
        }
    }

    @Test("hundreds of appends in one transaction are written in groups; the transaction reads its own", arguments: Backend.all)
    func manyTimelineAppendsInOneTransaction(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let users = [try await insertUser(store), try await insertUser(store), try await insertUser(store)]
            let gone = try await insertUser(store)
            let seenInside = try await store.write { tx in
                for index in 0..<301 {
                    _ = try await tx.timeline.append(
                        users[index % 3].id, at: at(Double(index)), kind: "k", summary: "\(index)", detail: "{}")
                }
                _ = try await tx.timeline.append(gone.id, at: at(0), kind: "k", summary: "then deleted", detail: "")
                try await tx.people.delete(gone.id)
                return try await tx.timeline.entries(of: users[0].id).count
            }
            #expect(seenInside == 101)
            for (offset, user) in users.enumerated() {
                let entries = try await store.read { try await $0.timeline.entries(of: user.id) }
                #expect(entries.count == (offset == 0 ? 101 : 100))
                #expect(entries.map(\.sequence) == Array(1...entries.count))
                #expect(entries.map(\.summary) == stride(from: offset, to: 301, by: 3).map(String.init))
                #expect(entries.first?.previousHash == TimelineEntry.genesisHash)
                #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.hash == $1.previousHash })
            }
            #expect(try await store.read { try await $0.timeline.entries(of: gone.id) }.isEmpty)
            let next = try await store.write {
                try await $0.timeline.append(users[1].id, at: at(999), kind: "k", summary: "next", detail: "")
            }
            #expect(next.sequence == 101)
        }
    }

    @Test("concurrent timeline appends to one user keep one unbroken chain", arguments: Backend.all)
    func concurrentTimeline(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<4 {
                    group.addTask {
                        for index in 0..<10 {
                            try await store.write {
                                _ = try await $0.timeline.append(
                                    ann.id, at: at(Double(index)), kind: "k", summary: "\(task)-\(index)", detail: "")
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let entries = try await store.read { try await $0.timeline.entries(of: ann.id) }
            #expect(entries.map(\.sequence) == Array(1...40))
            #expect(entries.first?.previousHash == TimelineEntry.genesisHash)
            #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.hash == $1.previousHash })
        }
    }

    @Test("concurrent writes: one that fails changes nothing, the others all commit", arguments: Backend.all)
    func concurrentWritesWithFailures(_ backend: Backend) async throws {
        struct Refused: Error {}
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            // 30 writers on one person's timeline: each waits for the one before it (the chain's
            // head is locked), so more would only test how long a lease may wait on a loaded
            // host (60 once exceeded the 10 s lease timeout on PostgreSQL in a full run).
            let writers = 30
            let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for index in 0..<writers {
                    group.addTask {
                        do {
                            try await store.write { tx in
                                _ = try await tx.timeline.append(
                                    ann.id, at: at(Double(index)), kind: "k", summary: "\(index)", detail: "")
                                if index % 3 == 0 { throw Refused() }
                                if index % 3 == 1 {
                                    // A failing statement after a successful one, in the same transaction.
                                    try await tx.people.insert(ann, deadline: t0, nextActionAt: nil)
                                }
                            }
                            return (index, true)
                        } catch is Refused {
                            return (index, false)
                        } catch let error as StoreError {
                            guard case .constraint = error else { throw error }
                            return (index, false)
                        }
                    }
                }
                var all: [Int: Bool] = [:]
                for try await (index, committed) in group { all[index] = committed }
                return all
            }
            #expect(outcomes.count == writers)
            #expect(outcomes.filter(\.value).map(\.key).sorted() == (0..<writers).filter { $0 % 3 == 2 })
            let entries = try await store.read { try await $0.timeline.entries(of: ann.id) }
            #expect(entries.map(\.sequence) == Array(1...(writers / 3)))
            #expect(Set(entries.map(\.summary)) == Set((0..<writers).filter { $0 % 3 == 2 }.map(String.init)))
            #expect(entries.first?.previousHash == TimelineEntry.genesisHash)
            #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.hash == $1.previousHash })
        }
    }
}
