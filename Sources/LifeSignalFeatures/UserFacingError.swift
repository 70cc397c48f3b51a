import Foundation
import LifeSignalClient
import LifeSignalModels
import LifeSignalRules

/// An error as a person sees it: one sentence, plus the API's stable code when there is one.
///
/// Features keep errors in state and in actions as this type, so responses stay `Equatable`
/// and tests can assert the exact message shown.
public struct UserFacingError: Error, Equatable, Hashable, Sendable {
    public var message: String
    /// `APIError.code` (`offline`, `code_expired`…) or the field of a validation error.
    public var code: String?

    public init(message: String, code: String? = nil) {
        self.message = message
        self.code = code
    }

    public init(_ error: any Error) {
        switch error {
        case let error as UserFacingError:
            self = error
        case let error as APIError:
            self.init(message: error.message, code: error.code)
        case let error as ValidationError:
            self.init(message: error.message, code: error.field)
        case let error as any LocalizedError where error.errorDescription != nil:
            self.init(message: error.errorDescription!)
        default:
            self.init(message: "Something went wrong. Please try again.")
        }
    }

    /// The device could not reach the server: a state to show, not a failure to apologise for.
    public var isOffline: Bool { code == "offline" }

    /// The session is gone: the person must sign in again.
    public var isUnauthorized: Bool { code == "not_signed_in" || code == "unauthorized" }
}

extension Result where Failure == UserFacingError {
    /// Runs `body` and captures its value or its error as a person would read it.
    static func catching(_ body: () async throws -> Success) async -> Self {
        do {
            return .success(try await body())
        } catch {
            return .failure(UserFacingError(error))
        }
    }
}

/// The model's `Notification`; Foundation has one too.
public typealias AppNotification = LifeSignalModels.Notification
