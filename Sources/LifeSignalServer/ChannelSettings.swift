import AsyncHTTPClient
import Foundation
import LifeSignalDelivery
import LifeSignalModels
import Logging

/// Which delivery channels this server can use, from `LIFESIGNAL_*` environment variables.
/// The `log` channel is always there; each other channel is on when its settings are given.
///
/// | channel | variables |
/// | --- | --- |
/// | webhook | `LIFESIGNAL_WEBHOOK_SECRET` |
/// | email | `LIFESIGNAL_SMTP_HOST`, `_PORT` (587), `_SECURITY` (starttls, tls, none), `_USERNAME`, `_PASSWORD`, `_FROM` |
/// | sms, voice | `LIFESIGNAL_TWILIO_ACCOUNT_SID`, `_AUTH_TOKEN`, `_FROM`, `_BASE_URL` |
/// | ntfy | `LIFESIGNAL_NTFY_BASE_URL` (https://ntfy.sh), `LIFESIGNAL_NTFY_TOKEN` |
/// | web_push | `LIFESIGNAL_VAPID_PRIVATE_KEY`, `LIFESIGNAL_VAPID_SUBJECT` |
/// | apns | `LIFESIGNAL_APNS_TEAM_ID`, `_KEY_ID`, `_PRIVATE_KEY` (PEM), `_TOPIC`, `_BASE_URL` |
public struct ChannelSettings: Sendable {
    public var environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    private func value(_ name: String) -> String? {
        environment["LIFESIGNAL_\(name)"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The adapters, sharing one HTTP client that never follows redirects (a webhook must
    /// not bounce a delivery to an address the person did not register).
    public func registry(httpClient: HTTPClient, publicBaseURL: String, logger: Logger) throws -> ChannelRegistry {
        var adapters: [any ChannelAdapter] = [LogChannel(logger: logger)]
        if let secret = value("WEBHOOK_SECRET") {
            adapters.append(WebhookChannel(configuration: .init(secret: secret), httpClient: httpClient))
        }
        if let host = value("SMTP_HOST"), let from = value("SMTP_FROM") {
            let security: SMTPSecurity =
                switch value("SMTP_SECURITY") ?? "starttls" {
                case "tls": .implicitTLS
                case "none": .none
                default: .startTLS
                }
            adapters.append(
                EmailChannel(
                    configuration: .init(
                        host: host, port: value("SMTP_PORT").flatMap(Int.init) ?? 587, security: security,
                        username: value("SMTP_USERNAME"), password: value("SMTP_PASSWORD"), fromAddress: from)))
        }
        if let sid = value("TWILIO_ACCOUNT_SID"), let token = value("TWILIO_AUTH_TOKEN"), let from = value("TWILIO_FROM") {
            let twilio = TwilioChannel.Configuration(
                baseURL: value("TWILIO_BASE_URL") ?? "https://api.twilio.com", accountSID: sid, authToken: token,
                from: from, statusCallbackURL: "\(publicBaseURL)/callbacks/twilio",
                keypressCallbackURL: "\(publicBaseURL)/callbacks/twilio/voice")
            adapters.append(TwilioChannel(.sms, configuration: twilio, httpClient: httpClient))
            adapters.append(TwilioChannel(.voice, configuration: twilio, httpClient: httpClient))
        }
        if value("NTFY_BASE_URL") != nil || value("NTFY_TOKEN") != nil {
            adapters.append(
                NtfyChannel(
                    configuration: .init(baseURL: value("NTFY_BASE_URL") ?? "https://ntfy.sh", accessToken: value("NTFY_TOKEN")),
                    httpClient: httpClient))
        }
        if let key = value("VAPID_PRIVATE_KEY") {
            adapters.append(
                try WebPushChannel(
                    configuration: .init(vapidPrivateKey: key, vapidSubject: value("VAPID_SUBJECT") ?? "mailto:admin@localhost"),
                    httpClient: httpClient))
        }
        if let team = value("APNS_TEAM_ID"), let keyID = value("APNS_KEY_ID"), let key = value("APNS_PRIVATE_KEY"),
            let topic = value("APNS_TOPIC")
        {
            adapters.append(
                try APNsChannel(
                    configuration: .init(
                        baseURL: value("APNS_BASE_URL") ?? "https://api.push.apple.com", teamID: team, keyID: keyID,
                        privateKey: key, topic: topic),
                    httpClient: httpClient))
        }
        return ChannelRegistry(adapters)
    }

    /// The number Twilio calls and texts from, when Twilio is configured.
    public var twilioFrom: String? { value("TWILIO_FROM") }

    /// Twilio's auth token, which also signs its status callbacks.
    public var twilioAuthToken: String? { value("TWILIO_AUTH_TOKEN") }

    /// The Web Push public key browsers subscribe with, when Web Push is configured.
    public func vapidPublicKey() -> String? {
        guard let key = value("VAPID_PRIVATE_KEY") else { return nil }
        return try? VAPID(privateKey: key, subject: value("VAPID_SUBJECT") ?? "mailto:admin@localhost").publicKey
    }
}
