import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalDelivery

/// The rules of one outbox round, without a store, a provider or a clock: what starts next,
/// what waits, what is left, and when the round is over.
@Suite("Delivery round")
struct DeliveryRoundTests {
    static let leaseUntil = fixedNow.addingTimeInterval(120)

    /// Delivery `n` to recipient `recipient`, an alert or not, to a webhook on `host` (or by SMS).
    static func item(
        _ n: Int, to recipient: Int? = nil, urgent: Bool = false, kind: LifeSignalModels.Notification.Kind = .drill,
        host: String? = nil, leaseUntil: Date = leaseUntil
    ) -> OutboxItem {
        OutboxItem(
            message: OutgoingMessage(
                deliveryID: DeliveryID(uuid(n)), notificationID: NotificationID(uuid(n)),
                recipientID: UserID(uuid(recipient ?? n)), channel: host == nil ? .sms : .webhook,
                address: host.map { "https://\($0)/hook" } ?? "+15555550100", kind: kind, title: "t", body: "b",
                urgent: urgent),
            attempts: 0, leaseUntil: leaseUntil)
    }

    static func uuid(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))! }

    static func round(
        _ items: [OutboxItem], batchSize: Int = 20, concurrency: Int = 8,
        lanes: OutboxWorker.Lanes = .init(alertReserve: 2, perDestination: 2, perRecipient: 2)
    ) -> DeliveryRound {
        DeliveryRound(claimed: items, batchSize: batchSize, concurrency: concurrency, lanes: lanes, maxAttemptSeconds: 45)
    }

    /// Starts everything the round allows now; the numbers of what started, in order.
    static func startAll(_ round: inout DeliveryRound, now: Date = fixedNow) -> [Int] {
        var started: [Int] = []
        while round.hasFreeSlot, case .start(let item) = round.next(now: now) { started.append(number(item)) }
        return started
    }

    static func number(_ item: OutboxItem) -> Int { Int(item.message.deliveryID.description.suffix(12))! }

    @Test func alertsStartFirstThenRemindersThenTheRest() {
        var round = Self.round([Self.item(1), Self.item(2, kind: .reminder), Self.item(3, urgent: true), Self.item(4)])
        #expect(Self.startAll(&round) == [3, 2, 1, 4])
    }

    @Test func nonAlertsLeaveTheReservedSlotsToAlerts() {
        // 4 slots, 2 kept for alerts: two drills start, the third waits; an alert still starts.
        var round = Self.round(
            (1...3).map { Self.item($0) }, concurrency: 4, lanes: .init(alertReserve: 2, perDestination: 9, perRecipient: 9))
        #expect(Self.startAll(&round) == [1, 2])
        #expect(round.hasFreeSlot)
        round.takeAlerts([Self.item(9, urgent: true)])
        #expect(round.next(now: fixedNow) == .start(Self.item(9, urgent: true)))
        // A drill finishing frees a slot for the waiting one.
        round.attempted(Self.item(1), .sent(providerID: nil), at: fixedNow)
        #expect(Self.startAll(&round) == [3])
    }

    @Test func noRecipientTakesMoreThanItsShare() {
        var round = Self.round(
            [Self.item(1, to: 7), Self.item(2, to: 7), Self.item(3, to: 7), Self.item(4, to: 8)],
            lanes: .init(alertReserve: 0, perDestination: 9, perRecipient: 2))
        #expect(Self.startAll(&round) == [1, 2, 4])
        round.attempted(Self.item(2, to: 7), .sent(providerID: nil), at: fixedNow)
        #expect(Self.startAll(&round) == [3])
    }

    @Test func noHostTakesMoreThanItsShare() {
        var round = Self.round(
            [
                Self.item(1, host: "slow.example"), Self.item(2, host: "slow.example"), Self.item(3, host: "slow.example"),
                Self.item(4, host: "fast.example"), Self.item(5),
            ], lanes: .init(alertReserve: 0, perDestination: 2, perRecipient: 9))
        #expect(Self.startAll(&round) == [1, 2, 4, 5])
        // Nothing else fits: the round may take handed-over work instead.
        #expect(round.next(now: fixedNow) == .takeOffered(limit: 20))
        round.attempted(Self.item(1, host: "slow.example"), .failed(reason: "x"), at: fixedNow)
        #expect(Self.startAll(&round) == [3])
    }

    @Test func nothingStartsThatCouldNotFinishInsideItsLease() {
        var round = Self.round([
            Self.item(1, leaseUntil: fixedNow.addingTimeInterval(44)), Self.item(2, leaseUntil: fixedNow.addingTimeInterval(45)),
            Self.item(3, leaseUntil: fixedNow.addingTimeInterval(120)),
        ])
        #expect(Self.startAll(&round) == [2, 3])
        #expect(round.tooLate == 1)
        for n in [2, 3] { round.attempted(Self.item(n), .sent(providerID: nil), at: fixedNow) }
        #expect(round.attemptedCount == 2)
    }

    @Test func handedOverWorkIsBoundedToFourBatches() {
        var round = Self.round([Self.item(1)], batchSize: 2, concurrency: 100)
        #expect(Self.startAll(&round) == [1])
        var offered = 1
        while case .takeOffered(let limit) = round.next(now: fixedNow) {
            #expect(limit <= 2)
            round.take((1...limit).map { Self.item(offered + $0, to: offered + $0) })
            offered += limit
            _ = Self.startAll(&round)
        }
        // The claim and what was handed over: four batches of two.
        #expect(round.taken == 8)
        #expect(round.next(now: fixedNow) == .nothing)
    }

    @Test func alertsHandedOverMeanwhileHaveABoundOfTheirOwn() {
        var round = Self.round((1...8).map { Self.item($0, to: $0) }, batchSize: 2, concurrency: 100)
        // Polled and handed-over work used the whole bound; alerts may still join, four batches of them.
        #expect(round.alertRoom == 2)
        for batch in 0..<4 {
            round.takeAlerts([Self.item(100 + 2 * batch, urgent: true), Self.item(101 + 2 * batch, urgent: true)])
        }
        #expect(round.alertRoom == 0)
        #expect(round.taken == 16)
        // The alerts start first, the latest batch first.
        #expect(round.next(now: fixedNow) == .start(Self.item(106, urgent: true)))
        #expect(Self.startAll(&round).count == 15)
        // The claim and the alerts fill the bound: no more handed-over work joins.
        #expect(round.next(now: fixedNow) == .nothing)
    }

    @Test func outcomesAreRecordedTogetherOneRecordAtATime() {
        var round = Self.round([Self.item(1), Self.item(2), Self.item(3)])
        _ = Self.startAll(&round)
        #expect(round.startRecording() == nil)
        round.attempted(Self.item(1), .sent(providerID: "p1"), at: fixedNow)
        #expect(round.startRecording()?.map(\.record.deliveryID) == [Self.item(1).message.deliveryID])
        // While that record is under way, the next outcomes wait and go together.
        round.attempted(Self.item(2), .retry(at: fixedNow, reason: "busy"), at: fixedNow)
        round.attempted(Self.item(3), .interrupted, at: fixedNow)
        #expect(round.startRecording() == nil)
        #expect(!round.isFinished)
        struct Refused: Error {}
        round.recorded(Refused())
        #expect(round.startRecording()?.map(\.record.outcome) == [.retry(at: fixedNow, reason: "busy"), .interrupted])
        #expect(!round.isFinished)
        round.recorded(nil)
        #expect(round.isFinished)
        #expect(round.firstError is Refused)
        #expect(round.attemptedCount == 3)
    }

    @Test func aSendThatMayHaveGoneOutBeforeIsRecordedAsSuch() {
        var item = Self.item(1)
        item.inDoubtSince = fixedNow.addingTimeInterval(-60)
        var round = Self.round([item])
        _ = Self.startAll(&round)
        round.attempted(item, .sent(providerID: nil), at: fixedNow)
        #expect(round.startRecording()?.first?.record.mayHaveBeenSentBefore == true)
    }

    @Test func stoppingGivesBackWhatWaitsAndWhatDidNotStart() {
        var round = Self.round(
            (1...4).map { Self.item($0) }, concurrency: 2, lanes: .init(alertReserve: 0, perDestination: 9, perRecipient: 9))
        #expect(Self.startAll(&round) == [1, 2])
        round.stop()
        round.notStarted(Self.item(2))
        round.attempted(Self.item(1), .interrupted, at: fixedNow)
        #expect(round.givenBack.map(Self.number) == [3, 4, 2])
        _ = round.startRecording()
        round.recorded(nil)
        #expect(round.isFinished)
        #expect(round.attemptedCount == 1)
    }
}
