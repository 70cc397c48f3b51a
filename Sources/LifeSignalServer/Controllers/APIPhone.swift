import LifeSignalPhone

/// Phone numbers in API bodies are read by libphonenumber, as the web reads them: a UK number
/// sent with its trunk 0 kept (`+44 07700 900123`) is the same person as `+447700900123`,
/// never a second account. A number libphonenumber cannot read is left to the core's own check,
/// which keeps the document's promise: any `+` and 8–15 digits is taken (and a code that cannot
/// be delivered says so), anything else is `invalid_phone`.
enum APIPhone {
    static func normalized(_ raw: String) -> String {
        (try? PhoneNumbers.e164(raw, region: nil)) ?? raw
    }
}
