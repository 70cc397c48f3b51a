import Foundation
import LifeSignalCore
import LifeSignalServer
import Testing

/// The settings file under the environment, and the escalation policy and delivery limits as
/// settings the start-up check holds to safe ranges.
@Suite struct SettingsFileTests {
    func file(_ json: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-settings-\(UUID().uuidString).json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theFileFillsWhatTheEnvironmentLeavesOut() async throws {
        let path = try file(
            """
            { "host": "0.0.0.0", "port": 9090, "public_url": "https://signal.example",
              "twilio_account_sid": "AC0123456789abcdef0123456789abcdef", "twilio_auth_token": "from-the-file",
              "twilio_from": "+15557654321", "dev": false, "escalation_repeat_minutes": 10 }
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let env = try await SettingsFile.effectiveEnvironment(
            file: path, environment: ["LIFESIGNAL_PORT": "8081", "LIFESIGNAL_TWILIO_AUTH_TOKEN": "from-the-environment", "PATH": "/bin"])
        #expect(env["LIFESIGNAL_HOST"] == "0.0.0.0")
        #expect(env["LIFESIGNAL_PORT"] == "8081", "the environment wins over the file")
        #expect(env["LIFESIGNAL_TWILIO_AUTH_TOKEN"] == "from-the-environment")
        #expect(env["LIFESIGNAL_TWILIO_FROM"] == "+15557654321")
        #expect(env["LIFESIGNAL_DEV"] == "0")
        #expect(env["PATH"] == "/bin")

        let config = try AppConfiguration.fromEnvironment(env)
        #expect(config.host == "0.0.0.0")
        #expect(config.port == 8081)
        #expect(config.publicBaseURL == "https://signal.example")
        #expect(config.escalation.repeatInterval == 600)
        #expect(config.serviceConfiguration.escalation.repeatInterval == 600)
        #expect(config.problems() == [])
        #expect(config.effectiveSettings().contains { $0 == ("escalation_repeat_minutes", "10") })
    }

    @Test func flagsWinOverTheEnvironmentAndTheFileAndAreCheckedTheSameWay() async throws {
        let path = try file(#"{ "host": "0.0.0.0", "port": 9090, "database": "/var/lib/lifesignal.sqlite" }"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let env = try await SettingsFile.effectiveEnvironment(
            file: path, environment: ["LIFESIGNAL_PORT": "8081", "LIFESIGNAL_HOST": "127.0.0.1"],
            flags: ["PORT": "8082", "DEV": "1"])
        #expect(env["LIFESIGNAL_PORT"] == "8082", "a flag wins over the environment and the file")
        #expect(env["LIFESIGNAL_HOST"] == "127.0.0.1", "the environment wins over the file")
        #expect(env["LIFESIGNAL_DATABASE"] == "/var/lib/lifesignal.sqlite")
        #expect(env["LIFESIGNAL_DEV"] == "1")
        let config = try AppConfiguration.fromEnvironment(env)
        #expect(config.port == 8082)
        #expect(config.development)

        // A bad flag is refused by the parser every source goes through.
        let bad = try await SettingsFile.effectiveEnvironment(file: nil, environment: [:], flags: ["PORT": "70000"])
        #expect(throws: ConfigurationError.self) { try AppConfiguration.fromEnvironment(bad) }
        await #expect(throws: ConfigurationError.self) {
            try await SettingsFile.effectiveEnvironment(file: nil, environment: [:], flags: ["PROT": "1"])
        }
    }

    @Test func withoutAFileTheEnvironmentIsAsItIs() async throws {
        let env = ["LIFESIGNAL_HOST": "::1"]
        #expect(try await SettingsFile.effectiveEnvironment(file: nil, environment: env) == env)
    }

    @Test func aMisspeltSettingOrABrokenFileIsRefused() async throws {
        let misspelt = try file(#"{ "hots": "0.0.0.0" }"#)
        let broken = try file(#"{ "host": "#)
        defer {
            try? FileManager.default.removeItem(atPath: misspelt)
            try? FileManager.default.removeItem(atPath: broken)
        }
        await #expect(throws: ConfigurationError.self) { try await SettingsFile.effectiveEnvironment(file: misspelt, environment: [:]) }
        await #expect(throws: ConfigurationError.self) { try await SettingsFile.effectiveEnvironment(file: broken, environment: [:]) }
        await #expect(throws: ConfigurationError.self) {
            try await SettingsFile.effectiveEnvironment(file: "/nonexistent/lifesignal.json", environment: [:])
        }
    }

    @Test func thePolicyAndDeliveryLimitsAreSettingsHeldToSafeRanges() throws {
        var env = [
            "LIFESIGNAL_DEV": "1", "LIFESIGNAL_ESCALATION_REPEAT_MINUTES": "5", "LIFESIGNAL_ESCALATION_MAX_NOTIFICATIONS": "4",
            "LIFESIGNAL_SOS_MAX_NOTIFICATIONS": "50", "LIFESIGNAL_CLAIM_MINUTES": "30", "LIFESIGNAL_DELIVERY_CONCURRENCY": "32",
            "LIFESIGNAL_DELIVERY_MAX_ATTEMPTS": "3",
        ]
        let config = try AppConfiguration.fromEnvironment(env)
        #expect(config.escalation == .init(repeatInterval: 300, maxNotifications: 4, maxAlertNotifications: 50, claimDuration: 1800))
        #expect(config.serviceConfiguration.deliveryConcurrency == 32)
        #expect(config.serviceConfiguration.deliveryMaxAttempts == 3)
        #expect(config.problems() == [])

        env["LIFESIGNAL_ESCALATION_REPEAT_MINUTES"] = "0"
        env["LIFESIGNAL_CLAIM_MINUTES"] = "100000"
        env["LIFESIGNAL_DELIVERY_CONCURRENCY"] = "1"
        #expect(
            try AppConfiguration.fromEnvironment(env).problems() == [
                "LIFESIGNAL_ESCALATION_REPEAT_MINUTES is 0: it must be between 1 and 240 (minutes between repeats of an unanswered alert)",
                "LIFESIGNAL_CLAIM_MINUTES is 100000: it must be between 5 and 1440 (how long \"I'm on it\" holds)",
                "LIFESIGNAL_DELIVERY_CONCURRENCY is 1: it must be between 4 and 1024 (sends in flight at once)",
            ])
        env["LIFESIGNAL_SOS_MAX_NOTIFICATIONS"] = "lots"
        #expect(throws: ConfigurationError.self) { try AppConfiguration.fromEnvironment(env) }
    }

    /// Every setting the server reads can be written in the file: the list the file is checked
    /// against is compared with the names the server's code reads, so the two cannot drift.
    @Test func theFileKnowsEverySettingTheServerReads() throws {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/LifeSignalServer")
        var read = Set<String>()
        let pattern = /"LIFESIGNAL_([A-Z0-9_]+)"|(?:value|number)\("([A-Z0-9_]+)"\)/
        for case let url as URL in FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
        where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in text.matches(of: pattern) {
                // Some code reads the full name, `value("LIFESIGNAL_…")`: the prefix is not the name.
                if let name = match.output.1 ?? match.output.2 {
                    read.insert(name.hasPrefix("LIFESIGNAL_") ? String(name.dropFirst("LIFESIGNAL_".count)) : String(name))
                }
            }
        }
        #expect(read.count > 30)
        #expect(read.subtracting(SettingsFile.names).sorted() == [])
    }
}
