import AsyncHTTPClient
import Foundation
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalLanguage
import LifeSignalModels
import Logging

/// Development or production: the settings that decide it, the start-up check that refuses
/// contradictions, the banner, and the sign-in code sender that follows from them.
extension AppConfiguration {
    /// Reads `LIFESIGNAL_DEV` and `LIFESIGNAL_TRUSTED_PROXIES`.
    mutating func readProductionSettings(_ env: [String: String]) throws {
        if let dev = env["LIFESIGNAL_DEV"]?.lowercased(), !dev.isEmpty {
            switch dev {
            case "1", "true", "yes", "on": development = true
            case "0", "false", "no", "off": development = false
            default: throw ConfigurationError("LIFESIGNAL_DEV must be 1 or 0, got \(dev)")
            }
        }
        if let proxies = env["LIFESIGNAL_TRUSTED_PROXIES"] {
            trustedProxies = try IPNetwork.list(proxies).get()
        }
    }

    /// Twilio's settings, shared by the SMS and voice channels and the code sender.
    public enum TwilioSettings: Sendable {
        case none
        /// Some of the three required variables are set, these are not.
        case partial(missing: [String])
        case complete(TwilioChannel.Configuration)
    }

    static let twilioRequired = ["LIFESIGNAL_TWILIO_ACCOUNT_SID", "LIFESIGNAL_TWILIO_AUTH_TOKEN", "LIFESIGNAL_TWILIO_FROM"]

    public var twilio: TwilioSettings {
        let env = channels.environment
        func value(_ name: String) -> String? { env[name].flatMap { $0.isEmpty ? nil : $0 } }
        let missing = Self.twilioRequired.filter { value($0) == nil }
        if missing.count == Self.twilioRequired.count { return .none }
        guard missing.isEmpty, let sid = value(Self.twilioRequired[0]), let token = value(Self.twilioRequired[1]),
            let from = value(Self.twilioRequired[2])
        else { return .partial(missing: missing) }
        return .complete(
            .init(
                baseURL: value("LIFESIGNAL_TWILIO_BASE_URL") ?? "https://api.twilio.com", accountSID: sid, authToken: token,
                from: from))
    }

    /// The contradictions that stop `serve` (and fail `config check`): one sentence each,
    /// naming the settings to change.
    public func problems() -> [String] {
        var problems: [String] = []
        switch twilio {
        case .none where !development:
            problems.append(
                "no sign-in code sender is configured: set LIFESIGNAL_TWILIO_ACCOUNT_SID, LIFESIGNAL_TWILIO_AUTH_TOKEN and LIFESIGNAL_TWILIO_FROM, or run with --dev"
            )
        case .partial(let missing):
            problems.append(
                "Twilio is only partly configured: \(Self.list(missing)) \(missing.count == 1 ? "is" : "are") missing (set all of \(Self.list(Self.twilioRequired)), or none)"
            )
        default:
            break
        }
        if case .complete = twilio, publicBaseURL == nil, !development {
            problems.append(
                "no public URL is set: Twilio's callbacks and the links in messages need the https address people reach this server at (--public-url, LIFESIGNAL_PUBLIC_URL)"
            )
        }
        if let id = instanceID, !InstanceIdentity.isValid(id) {
            problems.append("LIFESIGNAL_INSTANCE_ID is \(id): it must be 1–64 letters, digits, '.', '_', '-' or ':'")
        }
        if let url = publicBaseURL {
            let parsed = URL(string: url)
            let scheme = parsed?.scheme?.lowercased()
            let host = parsed?.host?.lowercased() ?? ""
            if !(scheme == "https" || scheme == "http") || host.isEmpty {
                problems.append("the public URL \(url) is not a web address (expected https://your.domain)")
            } else if scheme == "http" && !development && !["localhost", "127.0.0.1", "::1", "[::1]"].contains(host) {
                problems.append(
                    "the public URL \(url) is not https: links in messages and Twilio's callbacks need https (http is allowed only for localhost or with --dev)"
                )
            }
        }
        do {
            let registry = try channels.registry(httpClient: .shared, publicBaseURL: baseURL, logger: Logger(label: "check"))
            // With no code sender at all, that one line says it (sms needs Twilio too).
            let noSender = chosenDefaultChannel == nil && !development && { if case .none = twilio { true } else { false } }()
            if !registry.kinds.contains(defaultChannel), !noSender {
                problems.append(
                    "the default channel is \(defaultChannel.rawValue) but no \(defaultChannel.rawValue) channel is configured: set its LIFESIGNAL_* settings or choose another with --default-channel"
                )
            }
        } catch {
            problems.append("the channel settings can't be used: \(error)")
        }
        problems += policyProblems()
        if development && !isLoopbackHost {
            problems.append(
                "--dev prints sign-in codes and messages to this terminal and sends no texts: it needs a loopback --host (127.0.0.1, ::1 or localhost), never a public one"
            )
        }
        if defaultChannel == .log && !development {
            problems.append(
                "the default channel is log, which only writes to this server's log and reaches nobody: choose --default-channel sms (or another real channel), or run with --dev"
            )
        }
        if testClock && !(development && isLoopbackHost) {
            problems.append(
                "--test-clock lets anyone move time and raise false alarms: it needs --dev and a loopback --host (127.0.0.1, ::1 or localhost)"
            )
        }
        return problems
    }

    var isLoopbackHost: Bool {
        let host = host.lowercased()
        if host == "localhost" { return true }
        guard let address = IPAddress(host) else { return false }
        return IPNetwork("127.0.0.0/8")!.contains(address) || IPNetwork("::1")!.contains(address)
    }

    /// Every setting as `lifesignal config check` prints it, secrets masked (`****a1b2`).
    public func effectiveSettings() -> [(name: String, value: String)] {
        var settings: [(String, String)] = [
            ("mode", development ? "development" : "production"),
            ("host", host), ("port", String(port)), ("database", Self.maskedDatabase(database)),
            ("public_url", publicBaseURL ?? "(not set: \(baseURL))"), ("default_channel", defaultChannel.rawValue),
            ("log_level", logLevel.rawValue), ("test_clock", testClock ? "on" : "off"),
            ("engine", runEngine ? "on" : "off"),
            ("instance_id", instanceID ?? (sqlitePath.map { "(from \($0).instance)" } ?? "(made for each run)")),
            ("trusted_proxies", trustedProxies.isEmpty ? "(none)" : trustedProxies.map(\.description).joined(separator: ",")),
            ("escalation_repeat_minutes", String(Int(escalation.repeatInterval / 60))),
            ("escalation_max_notifications", String(escalation.maxNotifications)),
            ("sos_max_notifications", String(escalation.maxAlertNotifications)),
            ("claim_minutes", String(Int(escalation.claimDuration / 60))),
            ("delivery_concurrency", String(deliveryConcurrency)), ("delivery_max_attempts", String(deliveryMaxAttempts)),
            ("twilio_calls_per_second", String(callsPerSecond)),
        ]
        switch twilio {
        case .complete: settings.append(("code_sender", "twilio (sms, voice fallback)"))
        case .partial, .none: settings.append(("code_sender", development ? "terminal (development)" : "(none)"))
        }
        let kinds =
            (try? channels.registry(httpClient: .shared, publicBaseURL: baseURL, logger: Logger(label: "check")))?
            .kinds.map(\.rawValue).sorted() ?? []
        settings.append(("channels", kinds.joined(separator: ",")))
        let secrets: Set<String> = [
            "TWILIO_AUTH_TOKEN", "SMTP_PASSWORD", "NTFY_TOKEN", "VAPID_PRIVATE_KEY", "APNS_PRIVATE_KEY", "WEBHOOK_SECRET",
        ]
        for (name, value) in channels.environment.sorted(by: { $0.key < $1.key }) where name.hasPrefix("LIFESIGNAL_") {
            let short = String(name.dropFirst("LIFESIGNAL_".count))
            let channelPrefixes = ["TWILIO_", "SMTP_", "NTFY_", "VAPID_", "APNS_", "WEBHOOK_"]
            guard channelPrefixes.contains(where: short.hasPrefix), !value.isEmpty else { continue }
            let prefix = channelPrefixes.first(where: short.hasPrefix)!
            let key = prefix.dropLast().lowercased() + "." + short.dropFirst(prefix.count).lowercased()
            settings.append((key, secrets.contains(short) ? Self.mask(value) : value))
        }
        return settings
    }

    /// `****` and the last 4 characters (only `****` for a secret of 8 characters or fewer).
    public static func mask(_ secret: String) -> String {
        secret.count > 8 ? "****" + secret.suffix(4) : "****"
    }

    /// A PostgreSQL URL with its password masked.
    static func maskedDatabase(_ database: String) -> String {
        guard var components = URLComponents(string: database), components.scheme?.hasPrefix("postgres") == true,
            let password = components.password
        else { return database }
        components.password = mask(password)
        return components.string ?? database
    }

    static func list(_ names: [String]) -> String {
        names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// What `serve` says when it starts.
    public func banner() -> [String] {
        var lines: [String] = []
        if development {
            if case .complete = twilio {
                lines.append(
                    "LifeSignal: DEVELOPMENT mode. Sign-in codes go out by SMS through Twilio; the log channel's messages are printed here."
                )
            } else {
                lines.append(
                    "LifeSignal: DEVELOPMENT mode. Sign-in codes and the log channel's messages are printed here, labelled DEVELOPMENT; no text is sent. Not for real people."
                )
            }
        } else {
            lines.append(
                "LifeSignal: production mode. Sign-in codes go out by SMS through Twilio (a call when the number can't take texts).")
        }
        if testClock {
            lines.append("TEST CLOCK is on: time stands still and POST /test/clock/advance moves it for everyone.")
        }
        if !trustedProxies.isEmpty {
            lines.append(
                "Client addresses are read from Forwarded / X-Forwarded-For behind \(trustedProxies.map(\.description).joined(separator: ", "))."
            )
        }
        lines.append("Web app: \(baseURL)")
        return lines
    }

    /// Twilio when it is configured; else, in development, the terminal; else nothing can
    /// send (`serve` refuses to start that way; a code request then fails without logging the code).
    public func codeSender(httpClient: HTTPClient = .shared) -> SignInCodeSender {
        if case .complete(let twilio) = twilio {
            return .twilio(twilio, codeCall: CodeCall(authToken: twilio.authToken, publicBaseURL: baseURL), httpClient: httpClient)
        }
        if development { return .development() }
        return SignInCodeSender(canCall: false) { _, _, _ in
            throw CodeSendFailure(permanent: false, reason: "no sign-in code sender is configured")
        }
    }

    /// The replay route for code calls, when Twilio places them.
    public var codeCall: CodeCall? {
        guard case .complete(let twilio) = twilio else { return nil }
        return CodeCall(authToken: twilio.authToken, publicBaseURL: baseURL)
    }
}

extension SignInCodeSender {
    /// Development: the code is printed to the terminal (standard error), labelled, and nothing is sent.
    public static func development(
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) -> SignInCodeSender {
        var sender = SignInCodeSender(canCall: false) { phone, code, channel in
            write(
                "[DEVELOPMENT] sign-in code for \(phone): \(code) (a \(channel == .voice ? "call" : "text") in production; nothing was sent)"
            )
        }
        sender.showChannelCode = { address, code in
            write("[DEVELOPMENT] channel code for \(address): \(code) (sent to that channel only, in production)")
        }
        return sender
    }

    /// Codes by SMS through Twilio (or anything that speaks its API), or by a call that reads
    /// the code out digit by digit and repeats it on a key press. Nothing here logs the code.
    public static func twilio(
        _ configuration: TwilioChannel.Configuration, codeCall: CodeCall, httpClient: HTTPClient,
        now: @escaping @Sendable () -> Date = Date.init
    ) -> SignInCodeSender {
        var configuration = configuration
        configuration.statusCallbackURL = nil
        let sms = TwilioChannel(.sms, configuration: configuration, httpClient: httpClient)
        let voice = TwilioChannel(.voice, configuration: configuration, httpClient: httpClient)
        return SignInCodeSender(canCall: true) { phone, code, channel, language in
            do {
                switch channel {
                case .sms:
                    let text = TextMessage.normalise(Words(language)("code.text", ["code": code]), language: language)
                    _ = try await sms.send(.text(text), to: phone, statusCallback: false)
                case .voice:
                    _ = try await voice.send(
                        .twiml(codeCall.twiml(code: code, now: now(), language: language)), to: phone, statusCallback: false)
                }
            } catch let error as DeliveryFailure {
                throw CodeSendFailure(permanent: !error.isTransient, reason: error.reason)
            }
        }
    }
}
