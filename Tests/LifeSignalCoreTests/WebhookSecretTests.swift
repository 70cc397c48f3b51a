import Foundation
@testable import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalStore
import LifeSignalTestSupport
import Synchronization
import Testing

/// A webhook channel gets its own signing secret when it is registered: shown to its owner in
/// that answer only, and used for every message to it, whichever way the worker got the delivery.
@Suite("Webhook secrets")
struct WebhookSecretTests {
    /// A webhook adapter that records what it is asked to send (the signature itself is the
    /// adapter's, tested in the delivery tests).
    final class RecordingWebhook: ChannelAdapter {
        let kind: ChannelKind = .webhook
        let sent = Mutex<[OutgoingMessage]>([])

        func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
            sent.withLock { $0.append(message) }
            return .delivered()
        }

        var alerts: [OutgoingMessage] { sent.withLock { $0 }.filter { $0.kind == .manualAlert } }
    }

    /// Ada; Bob, her responder, with a webhook channel; the secret Bob was shown.
    func scenario() async throws -> (TestWorld, Caller, Caller, Channel) {
        var configuration = ServiceConfiguration()
        configuration.channelAddresses = .localTesting
        let world = try await TestWorld(configuration: configuration)
        let ada = try await world.signUp("Ada", phone: "+447700900400")
        let bob = try await world.signUp("Bob", phone: "+447700900401")
        try await world.link(responder: bob, dependent: ada)
        let hook = try await world.channels.addChannel(bob, .init(kind: .webhook, address: "http://127.0.0.1:9/bob"))
        return (world, ada, bob, hook)
    }

    @Test func theSecretIsShownOnceAndNeverReadBack() async throws {
        let (world, _, bob, hook) = try await scenario()
        let secret = try #require(hook.signingSecret)
        #expect(secret.hasPrefix("whsec_"))
        #expect(secret.count >= 40)
        let listed = try await world.channels.channels(bob)
        #expect(listed.map(\.id) == [hook.id])
        #expect(listed.allSatisfy { $0.signingSecret == nil })
        // Another webhook gets another secret; other kinds get none.
        let second = try await world.channels.addChannel(bob, .init(kind: .webhook, address: "http://127.0.0.1:9/bob2"))
        #expect(second.signingSecret != nil && second.signingSecret != secret)
        let ntfy = try await world.channels.addChannel(bob, .init(kind: .ntfy, address: "bob-topic-7f3a9c"))
        #expect(ntfy.signingSecret == nil)
    }

    @Test func aClaimedDeliveryCarriesItsChannelsSecret() async throws {
        let (world, ada, _, hook) = try await scenario()
        _ = try await world.incidents.raiseAlert(ada)
        let outbox = StoreOutbox(core: world.core)
        let now = world.clock.now
        let claimed = try await outbox.claimDue(now: now, limit: 100, owner: "test", leaseUntil: now.addingTimeInterval(600))
        let toHook = claimed.filter { $0.message.channel == .webhook }
        #expect(toHook.count == 1)
        #expect(toHook.allSatisfy { $0.message.signingSecret == hook.signingSecret })
        // Only the webhook's message carries a secret.
        #expect(claimed.filter { $0.message.channel != .webhook }.allSatisfy { $0.message.signingSecret == nil })
    }

    @Test func aHandedOverDeliveryCarriesItsChannelsSecret() async throws {
        let (world, ada, _, hook) = try await scenario()
        let webhook = RecordingWebhook()
        let worker = DeliveryService.worker(
            for: world.core, registry: ChannelRegistry([webhook, LogChannel()]), owner: "here")
        while try await worker.runOnce() > 0 {}
        _ = try await world.incidents.raiseAlert(ada)
        while try await worker.runOnce() > 0 {}
        #expect(webhook.alerts.count == 1)
        #expect(webhook.alerts.first?.signingSecret == hook.signingSecret)
    }

    @Test func aWebhookRegisteredBeforeKeepsTheServersSecret() async throws {
        let (world, ada, bob, hook) = try await scenario()
        // As a channel stored before per-channel secrets: no secret of its own.
        try await world.store.write { tx in try await tx.channels.setSigningSecret(hook.id, nil) }
        _ = try await world.incidents.raiseAlert(ada)
        let outbox = StoreOutbox(core: world.core)
        let now = world.clock.now
        let claimed = try await outbox.claimDue(now: now, limit: 100, owner: "test", leaseUntil: now.addingTimeInterval(600))
        #expect(claimed.contains { $0.message.channel == .webhook && $0.message.recipientID == bob.user.id })
        #expect(claimed.allSatisfy { $0.message.signingSecret == nil })
    }

    /// The database holds the secret sealed with the server's key: a copy of the database alone
    /// cannot sign as LifeSignal. One stored in clear before sealing existed is sealed at start.
    @Test func theSecretIsSealedAtRest() async throws {
        let (world, ada, _, hook) = try await scenario()
        let secret = try #require(hook.signingSecret)
        let stored = try #require(
            try await world.store.read { try await $0.channels.webhookSecrets(of: [hook.userID]) }[hook.userID]?.values.first)
        #expect(stored.hasPrefix("sealed:v1:") && !stored.contains(secret))
        #expect(Secrets.open(stored, key: Array(repeating: 7, count: 32)) == nil, "another key opens nothing")

        try await world.store.write { tx in try await tx.channels.setSigningSecret(hook.id, secret) }
        #expect(try await world.core.sealStoredSecrets() == 1)
        #expect(try await world.core.sealStoredSecrets() == 0)
        let resealed = try #require(
            try await world.store.read { try await $0.channels.webhookSecrets(of: [hook.userID]) }[hook.userID]?.values.first)
        #expect(resealed.hasPrefix("sealed:v1:"))
        _ = try await world.incidents.raiseAlert(ada)
        let now = world.clock.now
        let claimed = try await StoreOutbox(core: world.core).claimDue(
            now: now, limit: 100, owner: "test", leaseUntil: now.addingTimeInterval(600))
        #expect(claimed.filter { $0.message.channel == .webhook }.map(\.message.signingSecret) == [secret])
    }
}
