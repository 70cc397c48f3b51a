import LifeSignalRules
import Testing

/// The emergency number offered beside an SOS is the one of the person's country.
@Suite("Emergency numbers")
struct EmergencyNumberTests {
    @Test(arguments: [
        ("+12015550123", "911"), ("+14165550123", "911"), ("+447700900123", "999"), ("+61412345678", "000"),
        ("+6421123456", "111"), ("+33612345678", "112"), ("+4915123456789", "112"), ("+819012345678", "112"),
    ])
    func isTheOneOfTheirCountry(phone: String, number: String) {
        #expect(EmergencyNumber.forPhone(phone) == number)
    }
}
