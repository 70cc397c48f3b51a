import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// Where a person is reached: their channels, each proved with a code before alerts use it.
public struct Channels: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

extension Channels {
    public func channels(_ caller: Caller) async throws -> [Channel] {
        try await core.read { try await $0.channels.all(of: caller.user.id) }
    }

    /// Adds a channel at the end of the caller's fallback order. A text, call or e-mail channel
    /// to an address not yet proved theirs is sent a 6-digit code and receives nothing else until
    /// the code comes back (``verifyChannel``); the caller's own signed-in number is proved already.
    public func addChannel(_ caller: Caller, _ registration: ChannelRegistration) async throws -> Channel {
        let address = try core.validatedAddress(registration.kind, registration.address)
        let categories = registration.categories ?? Set(Notification.Category.allCases)
        let code = String(format: "%06d", core.environment.randomInt(below: 1_000_000))
        let secret = "whsec_" + Secrets.base64URL(core.environment.randomBytes(32))
        let added: Channel = try await core.write { tx, events in
            let existing = try await tx.channels.all(of: caller.user.id)
            if existing.contains(where: { $0.kind == registration.kind && $0.address == address }) {
                throw ServiceError(.conflict, code: .channelExists, Said("error.channelExists"))
            }
            guard existing.count < 20 else {
                throw ServiceError(.conflict, code: .tooManyChannels, Said("error.tooManyChannels"))
            }
            let proved =
                !Channel.needsVerification(registration.kind)
                || ([.sms, .voice].contains(registration.kind) && address == caller.user.phone)
            let channel = Channel(
                id: core.newID(), userID: caller.user.id, kind: registration.kind, address: address,
                priority: (existing.map(\.priority).max() ?? -1) + 1, categories: categories.union([.alerts]), createdAt: core.now,
                verifiedAt: proved ? core.now : nil)
            try await tx.channels.insert(channel)
            if !proved { try await sendChannelCode(code, to: channel, tx: tx, events: events) }
            guard channel.kind == .webhook else { return channel }
            // Its own secret, shown in this answer only: a receiver checks signatures with it, and
            // one leaked secret forges nothing for anybody else's endpoint.
            var shown = channel
            shown.signingSecret = secret
            try await tx.channels.setSigningSecret(channel.id, Secrets.seal(secret, key: core.configuration.serverKey))
            return shown
        }
        if !added.isVerified { core.codeSender.showChannelCode?(added.address, code) }
        return added
    }

    /// The code that proves a channel, sent over that channel alone.
    private func sendChannelCode(_ code: String, to channel: Channel, tx: StoreTransaction, events: PendingEvents) async throws {
        // A number that texted STOP is texted nothing, a code included, until it says START.
        if channel.kind == .sms, try await tx.channels.phoneNumberState(channel.address).optedOutAt != nil {
            throw ServiceError(
                .conflict, code: .codeNotSent,
                Said("error.channelStopped"))
        }
        try await core.enforceLimit(
            core.configuration.limits.channelCodes, refusal: .tooManyChannelCodes, sender: channel.userID, recipient: nil,
            message: Said("error.tooManyChannelCodes"), tx: tx)
        try await tx.channels.setCode(
            channel.id, codeHash: codeHash(channel.id, code),
            expiresAt: core.now.addingTimeInterval(core.configuration.channelCodeLifetime))
        try await core.notify(
            NotificationDraft(
                recipient: channel.userID, kind: .channelCode, onlyTarget: channel,
                timelineSummary: "Proof code sent to \(Self.describe(channel))"
            ) { w in (w("proof.title", ["code": code]), w("proof.body", ["code": code])) },
            tx: tx, events: events)
    }

    /// A proof code as stored: keyed with the server's key, like sign-in codes.
    private func codeHash(_ id: ChannelID, _ code: String) -> String {
        Secrets.hmacHex(key: core.configuration.serverKey, "channel:\(id):\(code)")
    }

    /// The code sent to a new channel comes back: from now on it receives what its categories ask
    /// for. Five wrong codes use the code up; adding the channel again sends a new one.
    public func verifyChannel(_ caller: Caller, id: ChannelID, code rawCode: String) async throws -> Channel {
        let code = try validated { try Validation.code(rawCode) }
        let now = core.now
        return try await core.write { tx, _ -> Result<Channel, ServiceError> in
            guard let channel = try await tx.channels.all(of: caller.user.id).first(where: { $0.id == id }) else {
                throw Self.channelNotFound
            }
            guard !channel.isVerified else { return .success(channel) }
            guard let pending = try await tx.channels.claimCodeAttempt(id, of: caller.user.id, limit: core.configuration.codeAttempts)
            else {
                throw ServiceError(
                    .invalid, code: .channelCodeUsedUp,
                    Said("error.channelCodeUsedUp"),
                    field: "code")
            }
            guard pending.expiresAt > now else {
                throw ServiceError(
                    .invalid, code: .codeExpired, Said("error.channelCodeExpired"), field: "code")
            }
            // A wrong code keeps its counted attempt: the transaction commits with the failure.
            guard Secrets.constantTimeEquals(pending.hash, codeHash(id, code)) else {
                return .failure(ServiceError(.invalid, code: .wrongCode, Said("error.channelWrongCode"), field: "code"))
            }
            try await tx.channels.markVerified(id, at: now)
            var verified = channel
            verified.verifiedAt = now
            return .success(verified)
        }.get()
    }

    /// How the latest code to each of the caller's unproved channels went (queued, sent,
    /// delivered or failed and why), so nobody is told "we sent a code" that never left.
    public func codeDeliveries(_ caller: Caller) async throws -> [ChannelID: DeliveryProof] {
        try await core.read { tx in
            let unproved = try await tx.channels.all(of: caller.user.id).filter { !$0.isVerified }
            guard !unproved.isEmpty else { return [:] }
            var latest: [ChannelID: DeliveryProof] = [:]
            for delivery in try await tx.deliveries.channelCodeDeliveries(of: caller.user.id) {
                if let channel = unproved.first(where: { $0.kind == delivery.channel && $0.address == delivery.address }) {
                    latest[channel.id] = DeliveryProof(delivery)
                }
            }
            return latest
        }
    }

    public func removeChannel(_ caller: Caller, id: ChannelID) async throws {
        let deleted = try await core.write { tx, _ in try await tx.channels.delete(id, of: caller.user.id) }
        guard deleted else { throw Self.channelNotFound }
    }

    /// "the text number ending 67", "the e-mail address at example.com": enough to recognise it.
    static func describe(_ channel: Channel) -> String {
        switch channel.kind {
        case .sms: "the text number ending \(channel.address.suffix(2))"
        case .voice: "the call number ending \(channel.address.suffix(2))"
        case .email: "the e-mail address at \(channel.address.split(separator: "@").last.map(String.init) ?? "")"
        default: "the new \(channel.kind.rawValue) channel"
        }
    }

    static let channelNotFound = ServiceError(.notFound, code: .channelNotFound, Said("error.channelNotFound"))

    /// Which of the caller's numbers (the one they sign in with, their text channels) said
    /// STOP: nothing is texted to them until they text START.
    public func stoppedNumbers(_ caller: Caller) async throws -> Set<String> {
        try await core.read { tx in
            let numbers = [caller.user.phone] + (try await tx.channels.all(of: caller.user.id)).filter { $0.kind == .sms }.map(\.address)
            return try await tx.channels.optedOutNumbers(among: numbers)
        }
    }
}

extension ServiceCore {
    /// The address to store, checked per kind by ``ChannelAddress`` (one e-mail address without
    /// line breaks, E.164 phone, https URL on a public-looking host without credentials, a
    /// well-formed Web Push subscription, a hex device token).
    /// Encrypts the webhook secrets stored in clear before sealing existed; run at start (once
    /// none are left it is one empty read). Returns how many it sealed.
    @discardableResult
    public func sealStoredSecrets() async throws -> Int {
        var sealed = 0
        while true {
            let batch = try await read { try await $0.channels.unsealedWebhookSecrets(limit: 500) }
            guard !batch.isEmpty else { return sealed }
            try await write { tx, _ in
                for unsealed in batch {
                    try await tx.channels.setSigningSecret(unsealed.id, Secrets.seal(unsealed.secret, key: configuration.serverKey))
                }
            }
            sealed += batch.count
        }
    }

    /// Seals the timeline heads written before heads were sealed, as they stand. Only when the
    /// operator says so (the first start with a new server key, or `--seal-existing-history`):
    /// run at every start, it would also seal a head someone rewrote and unsealed in the
    /// database. Returns how many it sealed.
    @discardableResult
    public func sealExistingHistory() async throws -> Int {
        var sealed = 0
        let key = configuration.serverKey
        while true {
            let heads = try await read { try await $0.timeline.unsealedHeads(limit: 500) }
            guard !heads.isEmpty else { break }
            let done = try await write { tx, _ in
                var done = 0
                for head in heads {
                    let seal = StoreTransaction.timelineSeal(key: key, userID: head.userID, sequence: head.sequence, hash: head.hash)
                    if try await tx.timeline.sealHead(of: head.userID, sequence: head.sequence, hash: head.hash, seal: seal) { done += 1 }
                }
                return done
            }
            // A head moved by a store that seals nothing would come back for ever: stop.
            guard done > 0 else { break }
            sealed += done
        }
        return sealed
    }

    func validatedAddress(_ kind: ChannelKind, _ raw: String) throws -> String {
        // A log channel reaches nobody: offered to a person in production, it would look like
        // a way to be told that tells no one.
        if kind == .log, !configuration.allowsLogChannels {
            throw ServiceError.invalid(field: "kind", Said("error.logChannel"))
        }
        return try validated { try ChannelAddress.validated(kind, raw, options: configuration.channelAddresses) }
    }
}
