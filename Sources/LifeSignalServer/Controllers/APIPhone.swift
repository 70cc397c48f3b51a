import LifeSignalCore
import LifeSignalPhone

/// Phone numbers in API bodies are read by libphonenumber, as the web reads them: a UK number
/// sent with its trunk 0 kept (`+44 07700 900123`) is the same person as `+447700900123`,
/// never a second account. The API takes numbers with their country code only.
enum APIPhone {
    static func normalized(_ raw: String, field: String = "phone") throws(ServiceError) -> String {
        do {
            return try PhoneNumbers.e164(raw, region: nil)
        } catch {
            throw ServiceError.invalid(field: field, error.message)
        }
    }
}
