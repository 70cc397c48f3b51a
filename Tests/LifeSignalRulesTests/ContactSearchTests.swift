import Foundation
import LifeSignalModels
import LifeSignalRules
import Testing

@Suite("Contact search")
struct ContactSearchTests {
    static func contact(_ first: String, _ last: String, _ phone: String = "+447700900123") -> Contact {
        Contact(
            userID: UserID(UUID()), firstName: first, lastName: last, phone: phone, emergencyNote: "", hasAvatar: false,
            roles: .responder, addedAt: Date(timeIntervalSince1970: 0))
    }

    @Test(arguments: [
        ("", true), ("ada", true), ("ADA", true), ("lo", true), ("ada lo", true), ("lo ada", true),
        ("ove", false), ("adam", false), ("ada x", false),
        ("900 123", true), ("7700900123", true), ("+44 7700", true), ("12", false), ("999", false),
    ])
    func findsByNameStartsAndPhoneDigits(query: String, found: Bool) {
        #expect(ContactSearch.matches(Self.contact("Ada", "Lovelace"), query: query) == found)
    }

    @Test func accentsAndHyphensAreIgnored() {
        let eloise = Self.contact("Éloïse", "Martin-Dupont")
        #expect(ContactSearch.matches(eloise, query: "eloise"))
        #expect(ContactSearch.matches(eloise, query: "dup"))
        #expect(ContactSearch.filter([eloise, Self.contact("Bob", "Babbage")], query: "b").map(\.firstName) == ["Bob"])
    }
}
