import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// Every failure a caller of the service can see: a stable code, a kind the edge maps to a
/// status, and a message fit to show a person. Debug detail goes to the log, never here.
///
/// A refusal made with catalogue words (`words`) is said in the reader's language wherever it
/// is shown; `message` is its English, what the log and an API caller of unknown language read.
public struct ServiceError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        case invalid, unauthorized, forbidden, notFound, conflict, rateLimited, unavailable, payloadTooLarge
    }

    public var kind: Kind
    public var code: ErrorCode
    public var message: String
    /// The sentence by its catalogue key and arguments, said in the reader's words; nil for
    /// the few messages no person reads (a malformed request, a provider's callback).
    public var words: Said?
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

    /// A refusal in the catalogue's words; `message` is their English.
    public init(_ kind: Kind, code: ErrorCode, _ words: Said, field: String? = nil, retryAfter: Int? = nil) {
        self.init(kind, code: code, Words.english(words), field: field, retryAfter: retryAfter)
        self.words = words
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// The sentence in `words`' language: the catalogue's when the refusal has a key, else
    /// the English message.
    public func message(in words: Words) -> String {
        self.words.map { words($0) } ?? message
    }

    public static func invalid(_ error: ValidationError) -> ServiceError {
        var refusal = ServiceError(.invalid, code: ErrorCode(invalidField: error.field), error.message, field: error.field)
        refusal.words = error.key.map { Said($0, error.arguments) }
        return refusal
    }

    public static func invalid(field: String, _ words: Said) -> ServiceError {
        ServiceError(.invalid, code: ErrorCode(invalidField: field), words, field: field)
    }

    public static func invalid(field: String, _ message: String) -> ServiceError {
        ServiceError(.invalid, code: ErrorCode(invalidField: field), message, field: field)
    }

    public static let unauthorized = ServiceError(.unauthorized, code: .unauthorized, Said("error.signInAgain"))
    public static let userNotFound = ServiceError(.notFound, code: .userNotFound, Said("error.userNotFound"))
    public static let notAResponder = ServiceError(.forbidden, code: .notAResponder, Said("error.notAResponder"))
    public static let unavailable = ServiceError(.unavailable, code: .unavailable, Said("error.unavailable"), retryAfter: 5)
    public static let storageFull = ServiceError(.unavailable, code: .storageFull, Said("error.storageFull"), retryAfter: 30)
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
            ServiceError(.conflict, code: .conflict, Said("error.conflict"))
        default: error
        }
    }
}
