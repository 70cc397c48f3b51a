import CPhoneNumber
import Foundation
import LifeSignalRules

/// Phone numbers the way people write them: "07700 900123" in the United Kingdom,
/// "06 12 34 56 78" in France, read with Google's libphonenumber into the E.164 form the API
/// and the store keep (`+447700900123`).
///
/// The web app asks for a number and a country (picked from the browser's language,
/// changeable); the API itself keeps taking E.164 only.
public enum PhoneNumbers {
    /// A country people pick their number's format from.
    public struct Region: Sendable, Hashable, Identifiable {
        /// ISO 3166 code: `GB`.
        public var id: String
        /// `44`.
        public var callingCode: Int
        /// "United Kingdom", in English.
        public var name: String
    }

    /// Reads `typed` as a number of `region` (a number typed with its own `+` keeps its
    /// country) and returns it in E.164, or says in one sentence why it cannot be a number.
    public static func e164(_ typed: String, region: String?) throws(ValidationError) -> String {
        let trimmed = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw ValidationError(field: "phone", key: "validation.phone.empty")
        }
        guard trimmed.utf8.count <= 40 else {
            throw ValidationError(field: "phone", key: "validation.phone.tooLongToRead")
        }
        let code = region.map { $0.uppercased() }.flatMap { known.contains($0) ? $0 : nil }
        var out = [CChar](repeating: 0, count: 32)
        let result = ls_phone_normalize(trimmed, code ?? "", &out, out.count)
        switch result {
        case LS_PHONE_OK:
            return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        case LS_PHONE_TOO_SHORT, LS_PHONE_TOO_LONG, LS_PHONE_INVALID:
            // The country is an argument (its English name here; a page names it in its reader's
            // language), so each refusal has a form with it and one without.
            guard let country = code.flatMap({ name(of: $0) }) else {
                let key =
                    switch result {
                    case LS_PHONE_TOO_SHORT: "validation.phone.tooShort"
                    case LS_PHONE_TOO_LONG: "validation.phone.tooLong"
                    default: "validation.phone.notANumber"
                    }
                throw ValidationError(field: "phone", key: key)
            }
            let key =
                switch result {
                case LS_PHONE_TOO_SHORT: "validation.phone.tooShortFor"
                case LS_PHONE_TOO_LONG: "validation.phone.tooLongFor"
                default: "validation.phone.notANumberIn"
                }
            throw ValidationError(field: "phone", key: key, ["country": country])
        default:
            guard let code else { throw ValidationError(field: "phone", key: "validation.phone.withCountryCode") }
            throw ValidationError(field: "phone", key: "validation.phone.like", ["example": example(code) ?? "+44 7700 900123"])
        }
    }

    /// Whether a number (E.164) can receive texts, as far as libphonenumber knows its line
    /// type: a landline cannot (it can take a call); a number whose type is unknown, or one
    /// of a plan where landlines and mobiles share ranges, is given the benefit of the doubt
    /// (the code sent to it proves it either way).
    public static func canReceiveTexts(_ e164: String) -> Bool {
        ls_phone_number_type(e164) != LS_PHONE_TYPE_FIXED_LINE
    }

    /// Every country libphonenumber knows, by name.
    public static let regions: [Region] = known.compactMap { code in
        let calling = Int(ls_phone_calling_code(code))
        guard calling > 0 else { return nil }
        return Region(id: code, callingCode: calling, name: name(of: code) ?? code)
    }.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }

    /// The region codes libphonenumber knows.
    static let known: Set<String> = {
        let needed = ls_phone_regions(nil, 0)
        var out = [CChar](repeating: 0, count: needed + 1)
        _ = ls_phone_regions(&out, out.count)
        let text = String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Set(text.split(separator: ",").map(String.init))
    }()

    /// `code` when it is a region libphonenumber knows (upper-cased), else nil.
    public static func knownRegion(_ code: String) -> String? {
        known.contains(code.uppercased()) ? code.uppercased() : nil
    }

    /// A mobile number of `region` written the way people there write it, for placeholders.
    public static func example(_ region: String) -> String? {
        var out = [CChar](repeating: 0, count: 40)
        guard ls_phone_example(region, &out, out.count) == 1 else { return nil }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The country's English name.
    public static func name(of region: String) -> String? {
        Locale(identifier: "en").localizedString(forRegionCode: region)
    }

    /// The country a browser's languages suggest (`Accept-Language: en-GB,en;q=0.9` → `GB`,
    /// `fr` → `FR`), or the United States when none does.
    public static func region(acceptLanguage: String?) -> String {
        for item in (acceptLanguage ?? "").split(separator: ",") {
            let tag = item.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            let parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
            if let region = parts.dropFirst().first(where: { $0.count == 2 })?.uppercased(), known.contains(region) {
                return region
            }
            if let language = parts.first?.lowercased() {
                let region = languageRegions[language] ?? language.uppercased()
                if known.contains(region) { return region }
            }
        }
        return "US"
    }

    /// Languages whose code is not their main country's.
    static let languageRegions: [String: String] = [
        "en": "US", "ja": "JP", "ko": "KR", "zh": "CN", "sv": "SE", "da": "DK", "nb": "NO", "nn": "NO",
        "el": "GR", "cs": "CZ", "uk": "UA", "he": "IL", "hi": "IN", "ar": "EG", "fa": "IR", "vi": "VN",
        "ms": "MY", "sl": "SI", "et": "EE", "ga": "IE", "ca": "ES", "eu": "ES", "gl": "ES", "sq": "AL",
        "sr": "RS", "bs": "BA", "hy": "AM", "ka": "GE", "kk": "KZ", "ur": "PK", "bn": "BD", "ta": "IN",
        "sw": "KE", "af": "ZA", "zu": "ZA", "fil": "PH", "tl": "PH",
    ]
}
