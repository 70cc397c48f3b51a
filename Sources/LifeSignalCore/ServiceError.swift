import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// Every failure a caller of the service can see: a stable code, a kind the edge maps to a
/// status, and a message fit to show a person. Debug detail goes to the log, never here.
public struct ServiceError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        case invalid, unauthorized, forbidden, notFound, conflict, rateLimited, unavailable, payloadTooLarge
    }

    public var kind: Kind
    public var code: ErrorCode
    public var message: String
    /// For `invalid`: the input field at fault.
    public var field: String?
    /// For `rateLimited` and `unavailable`: seconds until trying again makes sense (`Retry-After`).
    public var retryAfter: Int?

    public init(_ kind: Kind, code: ErrorCode, _ message: String, field: String? = nil, retryAfter: Int? = nil) {
        self.kind = kind
        self.code = code
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
    }

    public var description: String { "\(code.rawValue): \(message)" }

    public static func invalid(_ error: ValidationError) -> ServiceError {
        ServiceError(.invalid, code: ErrorCode(invalidField: error.field), error.message, field: error.field)
    }

    public static func invalid(field: String, _ message: String) -> ServiceError {
        ServiceError(.invalid, code: ErrorCode(invalidField: field), message, field: field)
    }

    public static let unauthorized = ServiceError(.unauthorized, code: .unauthorized, "Please sign in again.")
    public static let userNotFound = ServiceError(.notFound, code: .userNotFound, "We couldn't find that person.")
    public static let notAResponder = ServiceError(
        .forbidden, code: .notAResponder, "Only someone's responders can do that.")
    public static let unavailable = ServiceError(
        .unavailable, code: .unavailable, "LifeSignal can't reach its database right now. Please try again shortly.",
        retryAfter: 5)
    public static let storageFull = ServiceError(
        .unavailable, code: .storageFull,
        "LifeSignal's storage is full, so nothing new can be saved right now. Please try again in a few minutes.",
        retryAfter: 30)
}

extension ServiceError {
    /// Maps storage failures: a refused constraint is a conflict, the rest is unavailability.
    static func from(_ error: any Error) -> any Error {
        switch error {
        case is ServiceError: error
        case let error as ValidationError: ServiceError.invalid(error)
        case StoreError.unavailable: ServiceError.unavailable
        case StoreError.full: ServiceError.storageFull
        case StoreError.constraint:
            ServiceError(.conflict, code: .conflict, "That conflicts with something that already exists.")
        default: error
        }
    }
}
