import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalServer
import Testing

/// The start-up check `serve` and `config check` run: each contradiction, one sentence.
@Suite struct StartupCheckTests {
    static let twilio = [
        "LIFESIGNAL_TWILIO_ACCOUNT_SID": "AC0123456789abcdef0123456789abcdef",
        "LIFESIGNAL_TWILIO_AUTH_TOKEN": "tw-token-0123456789a1b2",
        "LIFESIGNAL_TWILIO_FROM": "+15557654321",
    ]
    static let noSender =
        "no sign-in code sender is configured: set LIFESIGNAL_TWILIO_ACCOUNT_SID, LIFESIGNAL_TWILIO_AUTH_TOKEN and LIFESIGNAL_TWILIO_FROM, or run with --dev"

    func config(_ env: [String: String] = [:], _ change: (inout AppConfiguration) -> Void = { _ in }) -> AppConfiguration {
        var config = AppConfiguration()
        config.channels = ChannelSettings(environment: env)
        config.publicBaseURL = "https://lifesignal.example"
        change(&config)
        return config
    }

    @Test func developmentWithNothingConfiguredIsFine() {
        #expect(config { $0.development = true }.problems() == [])
    }

    @Test func productionNeedsACodeSender() {
        #expect(config().problems() == [Self.noSender])
        #expect(config(Self.twilio).problems() == [])
    }

    @Test func twilioInProductionNeedsAPublicURLForItsCallbacks() {
        #expect(
            config(Self.twilio) { $0.publicBaseURL = nil }.problems() == [
                "no public URL is set: Twilio's callbacks and the links in messages need the https address people reach this server at (--public-url, LIFESIGNAL_PUBLIC_URL)"
            ])
        #expect(
            config(Self.twilio) {
                $0.publicBaseURL = nil; $0.development = true
            }.problems() == [])
        #expect(config { $0.publicBaseURL = nil }.problems() == [Self.noSender], "one line when nothing is configured")
    }

    @Test func twilioPartlySetIsAContradictionEvenInDevelopment() {
        var env = Self.twilio
        env["LIFESIGNAL_TWILIO_FROM"] = nil
        #expect(
            config(env) { $0.development = true }.problems() == [
                "Twilio is only partly configured: LIFESIGNAL_TWILIO_FROM is missing (set all of LIFESIGNAL_TWILIO_ACCOUNT_SID, LIFESIGNAL_TWILIO_AUTH_TOKEN and LIFESIGNAL_TWILIO_FROM, or none)"
            ])
        env["LIFESIGNAL_TWILIO_AUTH_TOKEN"] = ""
        #expect(config(env).problems().first?.contains("LIFESIGNAL_TWILIO_AUTH_TOKEN and LIFESIGNAL_TWILIO_FROM are missing") == true)
    }

    @Test(arguments: [
        ("https://lifesignal.example", false, true), ("http://lifesignal.example", false, false),
        ("http://lifesignal.example", true, true), ("http://localhost:8080", false, true),
        ("http://127.0.0.1:8080", false, true), ("ftp://lifesignal.example", true, false), ("lifesignal.example", true, false),
    ])
    func publicURLMustBeHTTPS(url: String, development: Bool, ok: Bool) {
        let problems = config(Self.twilio) {
            $0.publicBaseURL = url
            $0.development = development
        }.problems()
        #expect(problems.isEmpty == ok, "\(problems)")
        if !ok { #expect(problems.count == 1 && problems[0].contains(url)) }
    }

    @Test func theDefaultChannelNeedsAnAdapter() {
        #expect(
            config(Self.twilio) { $0.defaultChannel = .email }.problems() == [
                "the default channel is email but no email channel is configured: set its LIFESIGNAL_* settings or choose another with --default-channel"
            ])
        #expect(config(Self.twilio) { $0.defaultChannel = .sms }.problems() == [])
        #expect(
            config {
                $0.development = true; $0.defaultChannel = .log
            }.problems() == [])
    }

    @Test(arguments: [
        (false, "127.0.0.1", false), (true, "127.0.0.1", true), (true, "localhost", true), (true, "::1", true),
        (true, "127.0.0.2", true), (true, "0.0.0.0", false), (true, "192.168.1.10", false), (true, "::", false),
    ])
    func theTestClockNeedsDevelopmentAndLoopback(development: Bool, host: String, ok: Bool) {
        let problems = config(Self.twilio) {
            $0.testClock = true
            $0.development = development
            $0.host = host
        }.problems()
        #expect(problems.isEmpty == ok, "\(problems)")
        // Without the test clock, only development on a public address is refused.
        #expect(
            config(Self.twilio) {
                $0.development = development; $0.host = host
            }.problems().isEmpty == (!development || ok))
    }

    /// Development prints codes and messages to the terminal and texts nobody: never on a
    /// public address. The log channel reaches nobody: never outside development.
    @Test func developmentStaysOnLoopbackAndTheLogChannelInDevelopment() {
        #expect(
            config {
                $0.development = true; $0.host = "0.0.0.0"
            }.problems() == [
                "--dev prints sign-in codes and messages to this terminal and sends no texts: it needs a loopback --host (127.0.0.1, ::1 or localhost), never a public one"
            ])
        #expect(
            config(Self.twilio) { $0.defaultChannel = .log }.problems() == [
                "the default channel is log, which only writes to this server's log and reaches nobody: choose --default-channel sms (or another real channel), or run with --dev"
            ])
        // Unless chosen, production texts a person's verified number; development logs.
        #expect(config(Self.twilio).defaultChannel == .sms)
        #expect(config { $0.development = true }.defaultChannel == .log)
        #expect(config { $0.development = true }.serviceConfiguration.allowsLogChannels)
        #expect(!config(Self.twilio).serviceConfiguration.allowsLogChannels)
    }

    @Test func theBannerSaysTheMode() {
        let dev = config {
            $0.development = true; $0.testClock = true
        }.banner()
        #expect(dev[0].contains("DEVELOPMENT mode"))
        #expect(dev.contains { $0.hasPrefix("TEST CLOCK is on") })
        let production = config(Self.twilio).banner()
        #expect(production[0].contains("production mode"))
        #expect(!production.contains { $0.contains("TEST CLOCK") })
    }

    @Test func secretsAreMaskedToTheirLastFourCharacters() {
        #expect(AppConfiguration.mask("tw-token-0123456789a1b2") == "****a1b2")
        #expect(AppConfiguration.mask("short") == "****")
        var env = Self.twilio
        env["LIFESIGNAL_SMTP_PASSWORD"] = "smtp-password-zz99"
        let settings = Dictionary(
            uniqueKeysWithValues: config(env) { $0.database = "postgres://ls:db-secret-5678@db:5432/ls" }.effectiveSettings()
                .map { ($0.name, $0.value) })
        #expect(settings["twilio.auth_token"] == "****a1b2")
        #expect(settings["twilio.account_sid"] == "AC0123456789abcdef0123456789abcdef")
        #expect(settings["smtp.password"] == "****zz99")
        #expect(settings["database"] == "postgres://ls:****5678@db:5432/ls")
        #expect(settings["mode"] == "production")
        #expect(settings["code_sender"] == "twilio (sms, voice fallback)")
    }

    @Test func theEnvironmentSetsModeAndProxies() throws {
        let config = try AppConfiguration.fromEnvironment([
            "LIFESIGNAL_DEV": "1", "LIFESIGNAL_TRUSTED_PROXIES": "10.0.0.0/8, 2001:db8::/32",
        ])
        #expect(config.development)
        #expect(config.trustedProxies.map(\.description) == ["10.0.0.0/8", "2001:db8::/32"])
        #expect(throws: ConfigurationError.self) { try AppConfiguration.fromEnvironment(["LIFESIGNAL_TRUSTED_PROXIES": "10.0.0.0/40"]) }
        #expect(throws: ConfigurationError.self) { try AppConfiguration.fromEnvironment(["LIFESIGNAL_DEV": "maybe"]) }
        #expect(try AppConfiguration.fromEnvironment([:]).development == false)
    }
}
