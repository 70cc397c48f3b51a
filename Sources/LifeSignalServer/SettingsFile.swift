import Configuration
import Foundation
import SystemPackage

/// Where the server's settings come from, read through swift-configuration's one reader: flags
/// first, then `LIFESIGNAL_*` environment variables, then the optional settings file
/// (`--config`, `LIFESIGNAL_CONFIG`), then the defaults. The file is a JSON object whose keys
/// are the `LIFESIGNAL_*` names without the prefix, in lower case —
///
/// ```json
/// { "host": "0.0.0.0", "public_url": "https://signal.example", "twilio_account_sid": "AC…",
///   "escalation_repeat_minutes": 10 }
/// ```
///
/// Each setting is looked up as `lifesignal.<name>` (the environment provider spells that
/// `LIFESIGNAL_<NAME>`; flags are given by the same names). The result is the effective
/// environment the typed ``AppConfiguration`` is parsed from, so every source goes through one
/// parser and one set of checks.
public enum SettingsFile {
    /// Every setting the server reads, as its `LIFESIGNAL_` name without the prefix.
    public static let names: [String] = [
        "HOST", "PORT", "DATABASE", "INSTANCE_ID", "DEFAULT_CHANNEL", "PUBLIC_URL", "DEV", "TRUSTED_PROXIES",
        "LOG_LEVEL", "LOG_FORMAT", "DELIVERY_STALL_SECONDS", "RETENTION",
        "ESCALATION_REPEAT_MINUTES", "ESCALATION_MAX_NOTIFICATIONS", "SOS_MAX_NOTIFICATIONS", "CLAIM_MINUTES",
        "DELIVERY_CONCURRENCY", "DELIVERY_MAX_ATTEMPTS",
        "SERVER_KEY", "SERVER_KEY_FILE", "SEAL_EXISTING_HISTORY",
        "WEBHOOK_SECRET",
        "SMTP_HOST", "SMTP_PORT", "SMTP_SECURITY", "SMTP_USERNAME", "SMTP_PASSWORD", "SMTP_FROM",
        "TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM", "TWILIO_BASE_URL", "TWILIO_CALLS_PER_SECOND",
        "NTFY_BASE_URL", "NTFY_TOKEN", "VAPID_PRIVATE_KEY", "VAPID_SUBJECT",
        "APNS_TEAM_ID", "APNS_KEY_ID", "APNS_PRIVATE_KEY", "APNS_TOPIC", "APNS_BASE_URL",
    ]

    /// `environment` with `flags` (by `LIFESIGNAL_*` name without the prefix: `["PORT": "8081"]`)
    /// over it, and every setting both lack taken from the file at `path` (none: no file). A key
    /// the server does not know is an error, so a misspelt setting is never silently ignored.
    public static func effectiveEnvironment(
        file path: String?, environment: [String: String], flags: [String: String] = [:]
    ) async throws -> [String: String] {
        if let unknown = flags.keys.sorted().first(where: { !names.contains($0) }) {
            throw ConfigurationError("no setting is called \(unknown)")
        }
        var providers: [any ConfigProvider] = [
            InMemoryProvider(
                name: "flags",
                values: Dictionary(
                    uniqueKeysWithValues: flags.map { name, value in
                        (AbsoluteConfigKey(["lifesignal", name.lowercased()]), ConfigValue(.string(value), isSecret: false))
                    })),
            EnvironmentVariablesProvider(environmentVariables: environment),
        ]
        if let path, !path.isEmpty { providers.append(try await fileProvider(path)) }
        let reader = ConfigReader(providers: providers)
        var effective = environment
        for name in names {
            let key = ConfigKey(["lifesignal", name.lowercased()])
            let value =
                reader.string(forKey: key) ?? reader.int(forKey: key).map(String.init)
                ?? reader.double(forKey: key).map { String($0) } ?? reader.bool(forKey: key).map { $0 ? "1" : "0" }
            if let value { effective["LIFESIGNAL_\(name)"] = value }
        }
        return effective
    }

    /// The settings file as a provider whose keys carry no prefix (`lifesignal.host` is `host`
    /// there), after checking it is a JSON object of known settings.
    static func fileProvider(_ path: String) async throws -> any ConfigProvider {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw ConfigurationError("the settings file \(path) can't be read")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ConfigurationError("the settings file \(path) is not a JSON object of settings")
        }
        let known = Set(names.map { $0.lowercased() })
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw ConfigurationError(
                "the settings file \(path) has an unknown setting \"\(unknown)\" (settings are the LIFESIGNAL_* names without the prefix, in lower case)"
            )
        }
        let file: FileProvider<JSONSnapshot>
        do { file = try await FileProvider<JSONSnapshot>(filePath: FilePath(path)) } catch {
            throw ConfigurationError("the settings file \(path) can't be read: \(error)")
        }
        return file.mapKeys { key in
            var unprefixed = key
            if unprefixed.components.first == "lifesignal" { unprefixed.components.removeFirst() }
            return unprefixed
        }
    }
}
