import Foundation
import LifeSignalLanguage

/// Why a delivery failed, as the people reading a report read it. The stored reason is English
/// and stays so (it is the record, and the operator's); the sentences the delivery code writes
/// are known here by their English (the catalogue's, a test holds them to what the channels
/// write) and said in the reader's words. A reason it does not know is shown as stored.
public enum DeliveryReason {
    /// `stored` in `words`' language; English readers read the record itself.
    public static func text(_ stored: String, in words: Words) -> String {
        guard words.rendered.primary != Language.english.primary, let said = said(stored) else { return stored }
        return said.map { sentence in
            // The provider is itself words: it is named in the reader's language too.
            var sentence = sentence
            if let provider = sentence.arguments["provider"] { sentence.arguments["provider"] = words(provider) }
            return words(sentence)
        }.joined(separator: " ")
    }

    /// The catalogue's sentences of a stored reason: the reason, then a provider's error
    /// number and "gave up after n attempts" when they follow it; nil when it is not one of
    /// the known sentences. A provider's sentence has the provider's key as its `provider`.
    public static func said(_ stored: String) -> [Said]? {
        var rest = Substring(stored)
        var after: [Said] = []
        if let match = rest.firstMatch(of: #/ Gave up after (\d+) attempts\.$/#), let count = Int(match.output.1) {
            after.insert(Said("delivery.reason.gaveUp", count: count), at: 0)
            rest = rest[..<match.range.lowerBound]
        }
        if let match = rest.firstMatch(of: #/ \(error ([0-9A-Za-z]+)\)$/#) {
            after.insert(Said("delivery.reason.errorCode", ["code": String(match.output.1)]), at: 0)
            rest = rest[..<match.range.lowerBound]
        }
        guard let reason = reason(String(rest)) else { return nil }
        return [reason] + after
    }

    static func reason(_ text: String) -> Said? {
        if let key = fixed[text] { return Said(key) }
        if let match = text.wholeMatch(of: #/The mail server refused the message \((.+)\)\./#) {
            return Said("delivery.reason.mailRefusedMessage", ["code": String(match.output.1)])
        }
        for (english, provider) in providers where text.hasPrefix(english + " ") {
            for template in templates where Words.english(template, ["provider": english]) == text {
                return Said(template, ["provider": provider])
            }
        }
        return nil
    }

    /// The fixed sentences the channels, the worker and the provider's reports write.
    static let fixed: [String: String] = [
        "The push subscription is not valid.": "delivery.reason.pushInvalid",
        "The push subscription has expired.": "delivery.reason.pushExpired",
        "The message is too large for Web Push.": "delivery.reason.pushTooLarge",
        "The push service did not accept our server key.": "delivery.reason.pushKey",
        "The push service gave an unexpected answer.": "delivery.reason.pushUnexpected",
        "The address is not a valid URL.": "delivery.reason.badURL",
        "The address could not be looked up.": "delivery.reason.lookup",
        "Refused: the address is on a private network.": "delivery.reason.privateNetwork",
        "The webhook address is not a valid http(s) URL.": "delivery.reason.webhookURL",
        "The message could not be encoded.": "delivery.reason.encoding",
        "The ntfy topic is not valid.": "delivery.reason.ntfyTopic",
        "The e-mail address is not valid.": "delivery.reason.emailInvalid",
        "The mail server could not be reached.": "delivery.reason.mailUnreachable",
        "The mail server did not answer in time.": "delivery.reason.mailTimeout",
        "A secure connection to the mail server could not be made.": "delivery.reason.mailTLS",
        "The mail server does not accept our sign-in method.": "delivery.reason.mailAuthMethod",
        "The mail server gave an answer that could not be read.": "delivery.reason.mailUnreadable",
        "The mail server is busy; it will be tried again.": "delivery.reason.mailBusy",
        "The mail server refused the e-mail address.": "delivery.reason.mailRefusedAddress",
        "The mail server refused our credentials.": "delivery.reason.mailRefusedCredentials",
        "The phone number is not in international format.": "delivery.reason.phoneFormat",
        "The phone number is not valid.": "delivery.reason.phoneInvalid",
        "The phone number cannot be reached.": "delivery.reason.phoneUnreachable",
        "Messages to this country are not enabled.": "delivery.reason.countryDisabled",
        "The recipient has opted out of text messages (STOP).": "delivery.reason.optedOut",
        "This number cannot receive text messages from us.": "delivery.reason.notFromUs",
        "The phone number cannot receive text messages.": "delivery.reason.noTexts",
        "The device token is not valid.": "delivery.reason.apnsToken",
        "The Apple push key could not be used.": "delivery.reason.apnsKey",
        "The device is no longer registered for notifications.": "delivery.reason.apnsUnregistered",
        "Apple's push service asked for a fresh sign-in; it will be tried again.": "delivery.reason.apnsFreshSignIn",
        "Apple's push service did not accept our credentials.": "delivery.reason.apnsCredentials",
        "The message is too large for Apple push.": "delivery.reason.apnsTooLarge",
        "Apple's push service gave an unexpected answer.": "delivery.reason.apnsUnexpected",
        "The text message could not be delivered.": "delivery.reason.textUndelivered",
        "The text message could not be sent.": "delivery.reason.textNotSent",
        "The message was canceled.": "delivery.reason.canceled",
        "The line was busy.": "delivery.reason.busy",
        "Nobody answered the call.": "delivery.reason.noAnswer",
        "Interrupted by shutdown; it will be sent again.": "delivery.reason.interrupted",
        "channel not configured": "delivery.reason.notConfigured",
        "may have been sent twice: an earlier attempt was cut off before the provider answered": "delivery.reason.possibleDuplicate",
        "sent once: an earlier attempt was cut off, and the provider confirmed it had the message": "delivery.reason.foundAtProvider",
    ]

    /// How `HTTPDelivery` names each provider.
    static let providers: [String: String] = [
        "The SMS provider": "delivery.provider.sms",
        "The voice call provider": "delivery.provider.voice",
        "The push service": "delivery.provider.push",
        "The webhook endpoint": "delivery.provider.webhook",
        "The ntfy server": "delivery.provider.ntfy",
        "Apple's push service": "delivery.provider.apple",
    ]

    /// The sentences `HTTPDelivery` writes about a provider.
    static let templates = [
        "delivery.reason.provider.timeout",
        "delivery.reason.provider.unreachable",
        "delivery.reason.provider.busy",
        "delivery.reason.provider.redirect",
        "delivery.reason.provider.error",
        "delivery.reason.provider.unreadable",
    ]
}
