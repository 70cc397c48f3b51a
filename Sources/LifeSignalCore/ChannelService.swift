import Foundation
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

extension LifeSignalService {
    public func channels(_ caller: Caller) async throws -> [Channel] {
        try await read { try await $0.channels(of: caller.user.id) }
    }

    /// Adds a channel at the end of the caller's fallback order.
    public func addChannel(_ caller: Caller, _ registration: ChannelRegistration) async throws -> Channel {
        let address = try validatedAddress(registration.kind, registration.address)
        let categories = registration.categories ?? Set(Notification.Category.allCases)
        return try await write { tx, _ in
            let existing = try await tx.channels(of: caller.user.id)
            if existing.contains(where: { $0.kind == registration.kind && $0.address == address }) {
                throw ServiceError(.conflict, code: "channel_exists", "That channel is already registered.")
            }
            guard existing.count < 20 else {
                throw ServiceError(.conflict, code: "too_many_channels", "You can register at most 20 channels.")
            }
            let channel = Channel(
                id: newID(), userID: caller.user.id, kind: registration.kind, address: address,
                priority: (existing.map(\.priority).max() ?? -1) + 1, categories: categories.union([.alerts]), createdAt: now)
            try await tx.insertChannel(channel)
            return channel
        }
    }

    public func removeChannel(_ caller: Caller, id: ChannelID) async throws {
        let deleted = try await write { tx, _ in try await tx.deleteChannel(id, of: caller.user.id) }
        guard deleted else { throw ServiceError(.notFound, code: "channel_not_found", "That channel doesn't exist.") }
    }

    /// The address to store, checked per kind by ``ChannelAddress`` (one e-mail address without
    /// line breaks, E.164 phone, https URL on a public-looking host without credentials, a
    /// well-formed Web Push subscription, a hex device token).
    func validatedAddress(_ kind: ChannelKind, _ raw: String) throws -> String {
        try validated { try ChannelAddress.validated(kind, raw, options: configuration.channelAddresses) }
    }
}
