import Foundation

/// CLDR's plural categories: which form of a word a number takes in a language.
public enum PluralCategory: String, CaseIterable, Sendable, Hashable, Codable {
    case zero, one, two, few, many, other

    /// The category of the whole number `n` in `language`, by CLDR's rules (hand-written here
    /// for the shipped languages; checked against ICU in the tests). Counts in LifeSignal are
    /// whole numbers, so the operands `v`, `f` and `t` are 0 and `e` is 0.
    public static func of(_ n: Int, in language: Language) -> PluralCategory {
        let n = abs(n)
        switch language.primary {
        case "ar":
            // zero: n = 0; one: n = 1; two: n = 2; few: n % 100 = 3..10; many: n % 100 = 11..99
            if n == 0 { return .zero }
            if n == 1 { return .one }
            if n == 2 { return .two }
            if (3...10).contains(n % 100) { return .few }
            if (11...99).contains(n % 100) { return .many }
            return .other
        case "fr":
            // one: i = 0,1; many: e = 0 and i != 0 and i % 1000000 = 0 and v = 0
            if n == 0 || n == 1 { return .one }
            if n % 1_000_000 == 0 { return .many }
            return .other
        case "es":
            // one: n = 1; many: e = 0 and i != 0 and i % 1000000 = 0 and v = 0
            if n == 1 { return .one }
            if n != 0 && n % 1_000_000 == 0 { return .many }
            return .other
        default:
            // en and de: one: i = 1 and v = 0 (a language the catalogue does not ship is
            // rendered in English, so its words never ask)
            return n == 1 ? .one : .other
        }
    }

    /// The categories a language's plural entries must all give, by CLDR (for whole numbers
    /// and the decimals CLDR lists alike: a translator fills every one).
    public static func required(in language: Language) -> Set<PluralCategory> {
        switch language.primary {
        case "ar": [.zero, .one, .two, .few, .many, .other]
        case "fr", "es": [.one, .many, .other]
        default: [.one, .other]
        }
    }
}
