import LifeSignalCore
import LifeSignalModels
import LifeSignalPhone

/// A text channel needs a number that can receive texts. libphonenumber knows which numbers
/// are landlines; those are refused as text channels (at the edge, where the phone rules
/// live) and offered as a call channel instead. Both the API and the web pages ask here.
enum TextableNumbers {
    static let landline = ServiceError.invalid(
        field: "address", "That number is a landline, so it can't receive texts. Add it as a phone call instead.")

    /// Throws ``landline`` for a text channel to a landline.
    static func check(_ registration: ChannelRegistration) throws {
        guard registration.kind == .sms else { return }
        let number = registration.address.filter { !" -().\u{00A0}".contains($0) }
        if !PhoneNumbers.canReceiveTexts(number) { throw landline }
    }
}
