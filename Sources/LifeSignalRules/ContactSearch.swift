import Foundation
import LifeSignalModels

/// Finding a contact by what was typed: "ada lo" finds Ada Lovelace, "élo" finds Éloïse,
/// "900 123" finds +44 7700 900123.
public enum ContactSearch {
    /// Every word typed starts a word of the name (case and accents ignored), or the digits
    /// typed (at least three) appear in the phone number. An empty query matches everyone.
    public static func matches(_ contact: Contact, query: String) -> Bool {
        let words = fold(query).split(whereSeparator: \.isWhitespace)
        guard !words.isEmpty else { return true }
        let nameWords = fold("\(contact.firstName) \(contact.lastName)").split(whereSeparator: { $0.isWhitespace || $0 == "-" })
        if words.allSatisfy({ word in nameWords.contains { $0.hasPrefix(word) } }) { return true }
        let digits = query.filter(\.isNumber)
        return digits.count >= 3 && digits.count == query.filter { !$0.isWhitespace && !"+-().".contains($0) }.count
            && contact.phone.filter(\.isNumber).contains(digits)
    }

    /// The contacts matching `query`, in their order.
    public static func filter(_ contacts: some Sequence<Contact>, query: String) -> [Contact] {
        contacts.filter { matches($0, query: query) }
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en"))
    }
}
