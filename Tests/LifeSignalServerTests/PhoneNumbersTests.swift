import LifeSignalPhone
import LifeSignalRules
import Testing

/// Numbers typed the way people write them in their country, read by libphonenumber.
@Suite("Phone numbers")
struct PhoneNumbersTests {
    @Test(arguments: [
        ("07700 900123", "GB", "+447700900123"),
        ("07700900123", "GB", "+447700900123"),
        ("(0)7700-900-123", "GB", "+447700900123"),
        ("020 7946 0000", "GB", "+442079460000"),  // a London landline
        ("06 12 34 56 78", "FR", "+33612345678"),
        ("(201) 555-0123", "US", "+12015550123"),
        ("0151 23456789", "DE", "+4915123456789"),
        ("090-1234-5678", "JP", "+819012345678"),
        // A number with its own country code keeps it, whatever the picked country.
        ("+44 7700 900123", "FR", "+447700900123"),
        ("+33 6 12 34 56 78", nil, "+33612345678"),
        ("00 44 7700 900123", "FR", "+447700900123"),
        // Italian landlines keep their 0.
        ("06 6982 1234", "IT", "+390669821234"),
    ])
    func readsNationalNumbers(typed: String, region: String?, e164: String) throws {
        #expect(try PhoneNumbers.e164(typed, region: region) == e164)
    }

    @Test func refusesWhatCannotBeANumberWithASentence() {
        func refusal(_ typed: String, _ region: String?) -> ValidationError? {
            do {
                _ = try PhoneNumbers.e164(typed, region: region)
                return nil
            } catch { return error }
        }
        // The English sentence (the API's), and the catalogue's key a page says it by.
        let cases: [(String, String?, String, String)] = [
            ("  ", "GB", "Enter your phone number.", "validation.phone.empty"),
            (
                "7700 90", "GB", "That number is too short for United Kingdom. Check it, or pick its country.",
                "validation.phone.tooShortFor"
            ),
            // A trunk 0 that cannot be dropped: not a number of the country picked.
            (
                "07700 900123", "US", "That is not a phone number in United States. Check it, or pick its country.",
                "validation.phone.notANumberIn"
            ),
            (
                "06 12 34 56 78 90 12", "FR", "That number is too long for France. Check it, or pick its country.",
                "validation.phone.tooLongFor"
            ),
            (
                "07700 900123", nil, "Enter the number with its country code (like +44 7700 900123), or pick its country.",
                "validation.phone.withCountryCode"
            ),
        ]
        for (typed, region, message, key) in cases {
            let refused = refusal(typed, region)
            #expect(refused?.field == "phone" && refused?.message == message && refused?.key == key, "\(typed)")
        }
        #expect(refusal("7700 90", "GB")?.arguments == ["country": "United Kingdom"])
        #expect(throws: ValidationError.self) { try PhoneNumbers.e164("call me", region: "GB") }
        #expect(throws: ValidationError.self) { try PhoneNumbers.e164(String(repeating: "1", count: 41), region: "US") }
        // An unknown country is no country.
        #expect(throws: ValidationError.self) { try PhoneNumbers.e164("07700 900123", region: "XX") }
    }

    @Test(arguments: [
        ("en-GB,en;q=0.9", "GB"), ("fr-FR,fr;q=0.8", "FR"), ("fr", "FR"), ("de-AT", "AT"), ("en", "US"),
        ("ja", "JP"), ("sv-SE", "SE"), ("pt-BR,pt;q=0.9", "BR"), ("", "US"), ("*", "US"), ("xx-YY", "US"),
    ])
    func theBrowsersLanguageSuggestsACountry(header: String, region: String) {
        #expect(PhoneNumbers.region(acceptLanguage: header) == region)
    }

    @Test func everyCountryHasANameAndCallingCode() throws {
        #expect(PhoneNumbers.regions.count > 200)
        let uk = try #require(PhoneNumbers.regions.first { $0.id == "GB" })
        #expect(uk.callingCode == 44)
        #expect(uk.name == "United Kingdom")
        #expect(PhoneNumbers.example("GB") == "07400 123456")
    }

    /// A text channel needs a number that can receive texts: landlines cannot.
    @Test(arguments: [
        ("+493012345678", false),  // a Berlin landline
        ("+442079460000", false),  // a London landline
        ("+4915123456789", true),  // a German mobile
        ("+447700900123", true),  // a UK mobile
        ("+12015550123", true),  // the US: landlines and mobiles share ranges
    ])
    func knowsWhichNumbersTakeTexts(number: String, texts: Bool) {
        #expect(PhoneNumbers.canReceiveTexts(number) == texts)
    }
}
