import Foundation
import LifeSignalRules

/// A country the phone field offers, with its calling code. The number a person types is
/// national; `e164(_:)` puts the calling code in front and lets `Validation.phone` decide.
public struct PhoneRegion: Hashable, Sendable, Identifiable {
    /// ISO 3166 region code (`GB`).
    public var id: String
    public var name: String
    /// Without the plus (`44`).
    public var callingCode: String

    public init(id: String, name: String, callingCode: String) {
        self.id = id
        self.name = name
        self.callingCode = callingCode
    }

    public static let unitedStates = PhoneRegion(id: "US", name: "United States", callingCode: "1")
    public static let unitedKingdom = PhoneRegion(id: "GB", name: "United Kingdom", callingCode: "44")

    /// The regions of the picker, most common first.
    public static let all: [PhoneRegion] = [
        .unitedStates,
        PhoneRegion(id: "CA", name: "Canada", callingCode: "1"),
        .unitedKingdom,
        PhoneRegion(id: "IE", name: "Ireland", callingCode: "353"),
        PhoneRegion(id: "AU", name: "Australia", callingCode: "61"),
        PhoneRegion(id: "NZ", name: "New Zealand", callingCode: "64"),
        PhoneRegion(id: "DE", name: "Germany", callingCode: "49"),
        PhoneRegion(id: "FR", name: "France", callingCode: "33"),
        PhoneRegion(id: "ES", name: "Spain", callingCode: "34"),
        PhoneRegion(id: "IT", name: "Italy", callingCode: "39"),
        PhoneRegion(id: "NL", name: "Netherlands", callingCode: "31"),
        PhoneRegion(id: "IN", name: "India", callingCode: "91"),
    ]

    /// The number in E.164 form. A leading trunk `0` of the national number is dropped
    /// (`07700 900123` in the UK is `+447700900123`); a number typed with its own `+` is
    /// taken as it is.
    public func e164(_ nationalNumber: String) throws(ValidationError) -> String {
        let typed = nationalNumber.trimmingCharacters(in: .whitespaces)
        if typed.hasPrefix("+") { return try Validation.phone(typed) }
        var digits = typed.filter { !" .-()\u{00A0}".contains($0) }
        while digits.hasPrefix("0") { digits.removeFirst() }
        return try Validation.phone("+" + callingCode + digits)
    }
}
