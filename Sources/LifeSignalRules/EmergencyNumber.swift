/// The local number for the police, an ambulance or the fire brigade, from the country code of
/// the person's own phone number: 911 in North America, 999 in the United Kingdom, 000 in
/// Australia, 111 in New Zealand, and 112 elsewhere (the number across Europe, which mobile
/// networks in most other countries also connect).
public enum EmergencyNumber {
    /// Longest country code first, so `+1` never shadows a longer one.
    static let byCountryCode: [(prefix: String, number: String)] = [
        ("+44", "999"), ("+61", "000"), ("+64", "111"), ("+1", "911"),
    ]

    /// The number to call where `phone` (E.164) is from; 112 when the country is not listed.
    public static func forPhone(_ phone: String) -> String {
        byCountryCode.first { phone.hasPrefix($0.prefix) }?.number ?? "112"
    }
}
