import Foundation
@testable import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalStore
import LifeSignalTestSupport
import Logging
import Testing

@Suite("Retention, account erasure and delivery health")
struct RetentionAndErasureTests {
    static let day: TimeInterval = 86400

    /// Ann, with an emergency note, watched over by Bob and Cy.
    func scenario() async throws -> (TestWorld, ann: Caller, bob: Caller, cy: Caller) {
        let world = try await TestWorld()
        var ann = try await world.signUp("Ann", phone: "+15550001001", last: "Lee")
        ann.user = try await world.profiles.updateProfile(ann, ProfileChanges(emergencyNote: "Spare key under the blue pot."))
        let bob = try await world.signUp("Bob", phone: "+15550001002", last: "Ray")
        let cy = try await world.signUp("Cy", phone: "+15550001003", last: "Poe")
        try await world.link(responder: bob, dependent: ann)
        try await world.link(responder: cy, dependent: ann)
        return (world, ann, bob, cy)
    }

    // MARK: Retention

    @Test func retentionPrunesOldNotificationsButKeepsAnOpenIncidentsAndRecentOnes() async throws {
        let (world, ann, bob, cy) = try await scenario()
        // Day 0: "added you" notifications (finished once the worker ran).
        let worker = DeliveryService.worker(
            for: world.core, registry: ChannelRegistry([LogChannel(logger: .init(label: "test"))]), owner: "test")
        _ = try await worker.runOnce()
        // Day 1: Ann raises an alert nobody resolves.
        world.clock.advance(by: Self.day)
        _ = try await world.incidents.raiseAlert(ann)
        _ = try await worker.runOnce()
        // Day 35: Cy pings Ann (recent).
        world.clock.advance(by: 34 * Self.day)
        _ = try await world.pings.ping(cy, dependent: ann.user.id)
        _ = try await worker.runOnce()

        let everyone = [ann, bob, cy]
        let cutoff = world.clock.now.addingTimeInterval(-30 * Self.day)
        let before = try await allNotifications(world, everyone)
        let old = before.filter { $0.createdAt < cutoff && $0.incidentID == nil }
        #expect(!old.isEmpty)
        let pass = try await RetentionService(core: world.core, batchSize: 1).prune()
        #expect(pass.notifications == old.count)
        #expect(pass.deliveries == old.count)
        // One row per transaction, to the end (and one empty batch for each kind of row).
        #expect(
            pass.batches == pass.notifications + 1 + pass.codes + 1 + pass.rateLimits + 1 + pass.planDetails + 1 + pass.locations + 2)
        let after = try await allNotifications(world, everyone)
        #expect(Set(after.map(\.id)) == Set(before.map(\.id)).subtracting(old.map(\.id)))
        #expect(after.contains { $0.type == .manualAlert && $0.createdAt < cutoff }, "the open incident's alert stays")
        #expect(after.contains { $0.type == .pingReceived })
        // A second run finds nothing.
        #expect(try await RetentionService(core: world.core).prune().notifications == 0)
    }

    func allNotifications(_ world: TestWorld, _ people: [Caller]) async throws -> [Notification] {
        var all: [Notification] = []
        for person in people {
            all += try await world.store.read {
                try await $0.notifications.list(of: person.user.id, NotificationQuery(limit: 500), since: .distantPast)
            }
        }
        return all
    }

    @Test func retentionRemovesExpiredSignInCodes() async throws {
        let world = try await TestWorld()
        _ = try await world.accounts.requestSignInCode(phone: "+15550002001", clientAddress: "a")
        world.clock.advance(by: 200)
        _ = try await world.accounts.requestSignInCode(phone: "+15550002002", clientAddress: "b")
        world.clock.advance(by: 200)  // the first has expired (5 minutes), the second not
        let pass = try await RetentionService(core: world.core).prune()
        #expect(pass.codes == 1)
        #expect(try await world.store.read { try await $0.sessions.pendingCode(phone: "+15550002001", purpose: "sign_in") } == nil)
        #expect(try await world.store.read { try await $0.sessions.pendingCode(phone: "+15550002002", purpose: "sign_in") } != nil)
        // Rate-limit windows are kept a day.
        #expect(pass.rateLimits == 0)
        world.clock.advance(by: 2 * Self.day)
        // Per number (2), per address (2) and the service's hourly budget (1).
        #expect(try await RetentionService(core: world.core).prune().rateLimits == 5)
    }

    // MARK: Account erasure

    @Test func deletingAnAccountErasesTheNameAndNoteFromOthersNotifications() async throws {
        let (world, ann, bob, cy) = try await scenario()
        _ = try await world.incidents.raiseAlert(ann)
        #expect(try await world.notifications(bob).contains { $0.title.contains("Ann Lee") && $0.body.contains("Spare key") })

        try await world.accounts.deleteAccount(ann)
        for reader in [bob, cy] {
            let texts = try await world.notifications(reader).map { $0.title + " " + $0.body }
            #expect(!texts.isEmpty)
            #expect(texts.allSatisfy { !$0.contains("Ann") && !$0.contains("Lee") && !$0.contains("Spare key") }, "\(texts)")
            #expect(try await world.notifications(reader).contains { $0.title == "🆘 a former contact needs help" })
            #expect(
                texts.contains {
                    $0.hasPrefix("A former contact asks you to watch over them A former contact asks you to watch over them")
                }, "\(texts)")
        }
    }

    @Test func aDeletedRespondersNameLeavesTheOtherRespondersNotifications() async throws {
        let (world, ann, bob, cy) = try await scenario()
        let incident = try await world.incidents.raiseAlert(ann)
        _ = try await world.incidents.acknowledge(bob, incident: incident.id)
        #expect(try await world.notifications(cy).contains { $0.title == "Bob Ray is handling Ann Lee's alert" })
        // Cy and Bob are not contacts: Cy is reached as a contact of Bob's contact Ann.
        try await world.accounts.deleteAccount(try await world.refresh(bob))
        let titles = try await world.notifications(cy).map(\.title)
        #expect(titles.contains("A former contact is handling Ann Lee's alert"), "\(titles)")
        #expect(titles.allSatisfy { !$0.contains("Bob") })
        // Ann's own notifications about Bob are rewritten too.
        #expect(try await world.notifications(ann).allSatisfy { !($0.title + $0.body).contains("Bob") })
    }

    @Test func erasingANameTakesWholeWordsOnly() {
        #expect(ServiceCore.erase(name: "Al", note: "", in: "All clear for Al") == "All clear for a former contact")
        #expect(ServiceCore.erase(name: "Al", note: "", in: "Al is safe") == "A former contact is safe")
        #expect(
            ServiceCore.erase(name: "Al Bo", note: "Key under pot.", in: "Al Bo raised an alert. Key under pot.")
                == "A former contact raised an alert.")
    }

    // MARK: Delivery health

    @Test func deliveryHealthTurnsRedWhenADueDeliveryWaitsTooLongOrTheWorkerStalls() async throws {
        let (world, ann, _, _) = try await scenario()
        #expect(await world.health.deliveryHealth().healthy)
        // No worker in this process: the alert's deliveries wait for a poll.
        _ = try await world.incidents.raiseAlert(ann)
        world.clock.advance(by: 121)
        let stalled = await world.health.deliveryHealth(stallAfter: 120)
        #expect(!stalled.healthy)
        #expect(stalled.reason?.contains("oldest due delivery has waited 121 s") == true, "\(stalled.reason ?? "")")
        #expect(stalled.oldestDueSeconds == 121)
        #expect(stalled.workerRunsHere == false)

        // A worker that is set up but never goes round is red too, once the limit passed.
        let worker = DeliveryService.worker(
            for: world.core, registry: ChannelRegistry([LogChannel(logger: .init(label: "test"))]), owner: "test")
        #expect(await world.health.deliveryHealth(stallAfter: 120).reason?.contains("oldest due") == true)
        _ = try await worker.runOnce()
        let green = await world.health.deliveryHealth(stallAfter: 120)
        #expect(green.healthy, "\(green.reason ?? "")")
        #expect(green.due == 0)
        #expect(green.workerRunsHere)
        world.clock.advance(by: 121)
        let quiet = await world.health.deliveryHealth(stallAfter: 120)
        #expect(!quiet.healthy)
        #expect(quiet.reason?.contains("outbox worker has not finished a round for 121 s") == true, "\(quiet.reason ?? "")")
    }

    @Test func aWorkerThatNeverStartedIsRedAfterTheLimit() async throws {
        let world = try await TestWorld()
        _ = DeliveryService.worker(for: world.core, registry: ChannelRegistry([]), owner: "test")
        #expect(await world.health.deliveryHealth(stallAfter: 120).healthy)
        world.clock.advance(by: 130)
        let health = await world.health.deliveryHealth(stallAfter: 120)
        #expect(!health.healthy)
        #expect(health.reason?.contains("has not finished a round since it started 130 s ago") == true, "\(health.reason ?? "")")
    }
}
