import Foundation

/// A code was sent: when it expires and when another may be asked for.
public struct CodeRequest: Sendable, Hashable, Codable {
    public var phone: String
    public var expiresAt: Date
    public var resendAfter: Date

    public init(phone: String, expiresAt: Date, resendAfter: Date) {
        self.phone = phone
        self.expiresAt = expiresAt
        self.resendAfter = resendAfter
    }
}
