import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalRules

/// Channel routing: which targets a notification goes to and how it spreads over them.
@Suite("Delivery plan")
struct DeliveryPlanTests {
    static let now = ISODate.parse("2026-03-01T12:00:00Z")!
    static let recipient = User(
        id: UserID(UUID(uuidString: "0195B3C4-1111-7000-8000-000000000001")!), phone: "+15555550100", createdAt: now,
        contactCode: String(repeating: "a", count: 32))

    static func channel(
        _ kind: ChannelKind, _ address: String, verified: Bool = true,
        categories: Set<LifeSignalModels.Notification.Category> = Set(LifeSignalModels.Notification.Category.allCases)
    ) -> Channel {
        Channel(
            id: ChannelID(UUID()), userID: recipient.id, kind: kind, address: address, priority: 0, categories: categories,
            createdAt: now, verifiedAt: verified ? now : nil)
    }

    static let email = channel(.email, "bob@example.com")
    static let hook = channel(.webhook, "https://hooks.example.com/x")
    static let text = channel(.sms, "+15555550199")

    static func target(_ channel: ChannelKind, _ address: String) -> DeliveryTarget {
        DeliveryTarget(channel: channel, address: address)
    }

    @Test(
        "targets by kind of notification",
        arguments: [
            // Nothing registered: the default channel to the phone.
            (LifeSignalModels.Notification.Kind.reminder, [Channel](), [target(.sms, "+15555550100")]),
            // Registered channels in their order; an alert ends with the phone.
            (
                .incidentOpened, [email, hook],
                [target(.email, "bob@example.com"), target(.webhook, "https://hooks.example.com/x"), target(.sms, "+15555550100")]
            ),
            (.alertSent, [email], [target(.email, "bob@example.com"), target(.sms, "+15555550100")]),
            // Not an alert: the registered channels only.
            (.pingReceived, [email, hook], [target(.email, "bob@example.com"), target(.webhook, "https://hooks.example.com/x")]),
            // The phone already registered is not added twice.
            (.manualAlert, [channel(.sms, "+15555550100"), email], [target(.sms, "+15555550100"), target(.email, "bob@example.com")]),
            // An unverified channel receives nothing.
            (.incidentOpened, [channel(.email, "x@example.com", verified: false)], [target(.sms, "+15555550100")]),
            // A channel that turned a category off does not get it (with none left, the phone
            // does); alerts and drills always go.
            (.pingReceived, [channel(.email, "e@example.com", categories: [.alerts])], [target(.sms, "+15555550100")]),
            (
                .pingReceived, [channel(.email, "e@example.com", categories: [.alerts]), hook],
                [target(.webhook, "https://hooks.example.com/x")]
            ),
            (.drill, [channel(.email, "e@example.com", categories: [])], [target(.email, "e@example.com")]),
        ])
    func targets(kind: LifeSignalModels.Notification.Kind, channels: [Channel], expected: [DeliveryTarget]) {
        #expect(
            DeliveryPlan.targets(for: kind, channels: channels, recipient: Self.recipient, defaultChannel: .sms) == expected)
    }

    @Test func aDeletedAccountHasNoDefaultTarget() {
        #expect(DeliveryPlan.targets(for: .incidentOpened, channels: [], recipient: nil, defaultChannel: .sms).isEmpty)
    }

    @Test(
        "a number that said STOP is not texted; an alert, and her notice of it, calls it instead",
        arguments: [
            (LifeSignalModels.Notification.Kind.pingReceived, [target(.email, "bob@example.com")]),
            (.incidentOpened, [target(.voice, "+15555550199"), target(.email, "bob@example.com"), target(.voice, "+15555550100")]),
            (.incidentResolved, [target(.voice, "+15555550199"), target(.email, "bob@example.com")]),
            // Her own "Bob has been alerted" (or "nobody could be"): she is called with it.
            (.alertSent, [target(.voice, "+15555550199"), target(.email, "bob@example.com"), target(.voice, "+15555550100")]),
        ])
    func optedOut(kind: LifeSignalModels.Notification.Kind, expected: [DeliveryTarget]) {
        #expect(
            DeliveryPlan.targets(
                for: kind, channels: [Self.text, Self.email], recipient: Self.recipient, defaultChannel: .sms,
                optedOut: ["+15555550199", "+15555550100"]) == expected)
    }

    @Test func manualAlertsAndDrillsGoOutOnEveryChannel() {
        let targets = [Self.target(.email, "a@example.com"), Self.target(.sms, "+15555550100")]
        for kind in [LifeSignalModels.Notification.Kind.manualAlert, .drill] {
            #expect(
                DeliveryPlan.firstDeliveries(for: kind, to: targets) == [
                    PlannedDelivery(target: targets[0], rank: 0, fanOut: .everyChannel),
                    PlannedDelivery(target: targets[1], rank: 1, fanOut: .everyChannel),
                ])
        }
    }

    @Test func everythingElseGoesToTheFirstAndFallsBack() {
        let targets = [Self.target(.email, "a@example.com"), Self.target(.webhook, "https://h.example.com"), Self.target(.sms, "+1555")]
        #expect(
            DeliveryPlan.firstDeliveries(for: .incidentOpened, to: targets) == [
                PlannedDelivery(target: targets[0], rank: 0, fanOut: .fallback(next: Array(targets.dropFirst())))
            ])
        #expect(DeliveryPlan.firstDeliveries(for: .incidentOpened, to: []).isEmpty)
        #expect(DeliveryPlan.only(targets[1]) == PlannedDelivery(target: targets[1], rank: 0, fanOut: .fallback(next: [])))
    }

    @Test(
        "the fan-out as stored with a delivery",
        arguments: [
            (-1, nil as String?, DeliveryFanOut.everyChannel as DeliveryFanOut?),
            (-1, "[]", .everyChannel),
            (0, "[]", .fallback(next: [])),
            (1, #"[{"address":"+1555","channel":"sms"}]"#, .fallback(next: [target(.sms, "+1555")])),
            // Queued before the list was stored, or unreadable: recomputed by rank.
            (0, nil, nil),
            (2, "not json", nil),
        ])
    func stored(rank: Int, next: String?, expected: DeliveryFanOut?) {
        #expect(DeliveryFanOut(storedRank: rank, storedNext: next) == expected)
    }

    @Test func theStoredListReadsBackAsWritten() throws {
        let next = [
            Self.target(.webPush, #"{"endpoint":"https://push.example.com/a/b","keys":{"auth":"x","p256dh":"y"}}"#),
            Self.target(.sms, "+15555550100"),
        ]
        let stored = try #require(DeliveryFanOut.fallback(next: next).storedNext)
        #expect(DeliveryFanOut(storedRank: 0, storedNext: stored) == .fallback(next: next))
        #expect(DeliveryFanOut.fallback(next: []).storedNext == "[]")
        #expect(DeliveryFanOut.everyChannel.storedNext == nil)
    }

    @Test func aRowQueuedBeforeTheListFallsBackAfterItsRank() {
        let targets = [Self.target(.email, "a@example.com"), Self.target(.webhook, "https://h"), Self.target(.sms, "+1555")]
        #expect(DeliveryFanOut.legacy(rank: 0, targets: targets) == .fallback(next: Array(targets.dropFirst())))
        #expect(DeliveryFanOut.legacy(rank: 2, targets: targets) == .fallback(next: []))
        #expect(DeliveryFanOut.legacy(rank: 5, targets: targets) == .fallback(next: []))
    }
}
