import Foundation
import LifeSignalModels
import LifeSignalRules

/// The service's own settings (the person's settings live on `User`).
public struct ServiceConfiguration: Sendable {
    public var escalation: EscalationPolicy
    /// Where notifications go for a person who registered no channel: `log` in development,
    /// `sms` to their verified number in production.
    public var defaultChannel: ChannelKind
    /// The public address of the web app, used in links sent to people.
    public var publicBaseURL: String
    public var codeLifetime: TimeInterval = 300
    public var codeAttempts = 5
    public var codeResendAfter: TimeInterval = 60
    /// Code requests allowed per phone number, and per client address, each hour.
    public var codeRequestsPerPhonePerHour = 5
    public var codeRequestsPerAddressPerHour = 30
    public var notificationHistoryDays = 30
    /// How channel addresses are checked at registration; `.localTesting` (http and private
    /// hosts allowed) is for tests against fakes on 127.0.0.1 only.
    public var channelAddresses: ChannelAddress.Options = .production

    public init(
        escalation: EscalationPolicy = .default, defaultChannel: ChannelKind = .log,
        publicBaseURL: String = "http://localhost:8080"
    ) {
        self.escalation = escalation
        self.defaultChannel = defaultChannel
        self.publicBaseURL = publicBaseURL
    }
}

/// Sends the 6-digit sign-in code. The development sender writes it to the log.
public struct SignInCodeSender: Sendable {
    public var send: @Sendable (_ phone: String, _ code: String) async throws -> Void

    public init(send: @escaping @Sendable (_ phone: String, _ code: String) async throws -> Void) {
        self.send = send
    }
}
