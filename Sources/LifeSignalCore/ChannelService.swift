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
        let address = try Self.validatedAddress(registration.kind, registration.address)
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

    static func validatedAddress(_ kind: ChannelKind, _ raw: String) throws -> String {
        let address = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        func invalid(_ message: String) -> ServiceError { .invalid(field: "address", message) }
        switch kind {
        case .inApp:
            throw invalid("The in-app channel is always on and needs no address.")
        case .sms, .voice:
            return try validated { try Validation.phone(address) }
        case .email:
            let parts = address.split(separator: "@")
            guard parts.count == 2, parts[1].contains("."), !address.contains(" "), address.count <= 254 else {
                throw invalid("Enter an e-mail address like name@example.com.")
            }
            return address
        case .webhook:
            guard let url = URL(string: address), ["https", "http"].contains(url.scheme ?? ""), url.host != nil else {
                throw invalid("Enter a webhook URL starting with https://.")
            }
            return address
        case .ntfy:
            let topic = address.split(separator: "/").last.map(String.init) ?? ""
            guard (1...64).contains(topic.count), topic.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw invalid("Enter an ntfy topic of letters, digits, - and _.")
            }
            return topic
        case .webPush:
            struct Subscription: Decodable {
                struct Keys: Decodable { var p256dh: String; var auth: String }
                var endpoint: String
                var keys: Keys
            }
            guard let sub = try? JSONDecoder().decode(Subscription.self, from: Data(address.utf8)),
                URL(string: sub.endpoint)?.scheme == "https" || URL(string: sub.endpoint)?.scheme == "http"
            else { throw invalid("That is not a Web Push subscription.") }
            return address
        case .apns:
            guard (64...200).contains(address.count), address.allSatisfy(\.isHexDigit) else {
                throw invalid("That is not an Apple device token.")
            }
            return address.lowercased()
        case .log:
            return address.isEmpty ? "log" : address
        }
    }
}
