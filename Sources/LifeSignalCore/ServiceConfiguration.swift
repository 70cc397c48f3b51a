import Foundation
import LifeSignalDelivery
import LifeSignalLanguage
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
    /// The number LifeSignal calls and texts from (Twilio's `From`), for the printable card
    /// and "call this number to check in"; nil when no phone provider is configured.
    public var lifeSignalNumber: String?
    public var codeLifetime: TimeInterval = 300
    public var codeAttempts = 5
    public var codeResendAfter: TimeInterval = 60
    /// Code requests allowed per phone number, and per client address, each hour.
    public var codeRequestsPerPhonePerHour = 5
    public var codeRequestsPerAddressPerHour = 30
    /// Codes the whole service sends in an hour, whoever asks: a ceiling on what a botnet
    /// rotating addresses can cost the operator (SMS pumping).
    public var codesPerHour = 1_000
    /// Which numbers codes may be sent to at all (countries, and no premium-rate numbers).
    public var codeDestinations = CodeDestinations()
    /// The server's own secret (32 bytes): keys what is stored of sign-in codes. Read from the
    /// key file in production (`--server-key-file`); one random key per process otherwise.
    public var serverKey: [UInt8] = ServiceConfiguration.processKey
    public var notificationHistoryDays = 30
    /// How often a person may make LifeSignal notify someone else.
    public var limits = AbuseLimits()
    /// A sign-in unused this long ends (API tokens end at their own date, if any).
    public var sessionIdleLimit: TimeInterval = 30 * 86_400
    /// Live event streams one person may hold open at once (phones, tabs).
    public var streamsPerUser = 8
    /// How long the code sent to a new channel works.
    public var channelCodeLifetime: TimeInterval = 900
    /// How recent a sign-in must be to change the phone number.
    public var recentSignIn: TimeInterval = 3_600
    /// An SOS raised again this soon after its owner cleared it reopens the same incident, and
    /// each responder is told of it again at most once per such window (``ServiceCore/raiseAlert(_:)``).
    public var sosCoalesceWindow: TimeInterval = 600
    /// Sends in flight at once in this process's delivery worker.
    public var deliveryConcurrency = 64
    /// Calls this process's delivery worker hands the provider per second (its CPS): calls
    /// beyond it wait in the outbox, alerts first (``CallPacing``).
    public var callsPerSecond = CallPacing.twilioDefaultCallsPerSecond
    /// Attempts on one channel (transient failures, with backoff) before the next channel.
    public var deliveryMaxAttempts = RetryPolicy().maxAttempts
    /// Whether people may register `log` channels (development: `serve --dev`).
    public var allowsLogChannels = false
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

extension ServiceConfiguration {
    /// The key of a process that was given none: codes it stores are checked only by itself.
    static let processKey: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }()
}

/// Which numbers LifeSignal sends codes to: the countries the operator serves (by calling
/// code; empty: every country), never a premium-rate range. Checked before anything is sent,
/// so a script cannot make the operator pay for calls to numbers it owns.
public struct CodeDestinations: Sendable, Hashable {
    /// Country calling codes served ("44", "1"); empty serves every country.
    public var callingCodes: Set<String> = []
    /// Number prefixes (E.164, with the +) never sent to: premium-rate and shared-cost ranges
    /// that toll fraud uses. The defaults are the well-known premium ranges of the plans
    /// LifeSignal is most used in; operators add their own.
    public var refusedPrefixes: [String] = [
        "+1900",  // North America: premium rate
        "+4470", "+4490", "+4491", "+4498",  // UK: personal numbering, premium rate
        "+3389",  // France: premium rate
        "+49900", "+49137",  // Germany: premium rate, mass calling
        "+3480", "+3490",  // Spain: premium and special rate
        "+3989",  // Italy: premium rate
        "+61190",  // Australia: premium rate
        "+881", "+882", "+883",  // satellite and international networks
        "+979",  // international premium rate
    ]

    public init(callingCodes: Set<String> = [], refusedPrefixes: [String]? = nil) {
        self.callingCodes = callingCodes
        if let refusedPrefixes { self.refusedPrefixes = refusedPrefixes }
    }

    /// Why a code will not be sent to `phone` (E.164), or nil when it may be.
    public func refusal(for phone: String) -> Said? {
        if refusedPrefixes.contains(where: { phone.hasPrefix($0) }) {
            return Said("error.premiumNumber")
        }
        if !callingCodes.isEmpty, !callingCodes.contains(where: { phone.hasPrefix("+" + $0) }) {
            return Said("error.countryNotServed")
        }
        return nil
    }
}

/// How a one-time code reaches the person: a text, or a call that reads it out.
public enum CodeChannel: String, Sendable, Hashable, Codable, CaseIterable {
    case sms, voice
}

/// The provider could not take the code. `permanent` when the number itself is the problem
/// (not valid, cannot receive texts: a landline); otherwise the provider was unreachable or busy.
public struct CodeSendFailure: Error, Sendable, Hashable {
    public var permanent: Bool
    /// For the operator's log; never shown to the person and never carries the code.
    public var reason: String

    public init(permanent: Bool, reason: String) {
        self.permanent = permanent
        self.reason = reason
    }
}

/// Sends the 6-digit sign-in and phone-change codes: by SMS, or by a voice call that reads
/// the code out. The development sender prints it to the terminal.
public struct SignInCodeSender: Sendable {
    /// Whether this sender can place a call (then a text the number can't receive falls back to a call).
    public var canCall: Bool
    /// Sends `code` to `phone`, in `language`: the words of the text or call are the sender's
    /// to make, in the language of whoever will read or hear them.
    public var send: @Sendable (_ phone: String, _ code: String, _ channel: CodeChannel, _ language: Language) async throws -> Void
    /// Where a development server (and the tests) shows the code that proves a new channel, as
    /// it shows sign-in codes: it has no provider to send it with. Nil in production, where the
    /// code goes to the channel being proved and nowhere else.
    public var showChannelCode: (@Sendable (_ address: String, _ code: String) -> Void)? = nil

    /// A sender that takes the code the same way whatever the channel (tests, development).
    public init(send: @escaping @Sendable (_ phone: String, _ code: String) async throws -> Void) {
        self.canCall = false
        self.send = { phone, code, _, _ in try await send(phone, code) }
    }

    /// A sender that takes the code, the channel and the reader's language.
    public init(
        canCall: Bool,
        sendIn:
            @escaping @Sendable (_ phone: String, _ code: String, _ channel: CodeChannel, _ language: Language) async throws
            -> Void
    ) {
        self.canCall = canCall
        self.send = sendIn
    }

    public init(
        canCall: Bool,
        sendVia: @escaping @Sendable (_ phone: String, _ code: String, _ channel: CodeChannel) async throws -> Void
    ) {
        self.canCall = canCall
        self.send = { phone, code, channel, _ in try await sendVia(phone, code, channel) }
    }
}
