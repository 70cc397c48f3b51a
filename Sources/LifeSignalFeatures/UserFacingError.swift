import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// An error as a person sees it: one sentence, plus why, for the code that must act on it.
///
/// Features keep errors in state and in actions as this type, so responses stay `Equatable`
/// and tests can assert the exact message shown.
public struct UserFacingError: Error, Equatable, Hashable, Sendable {
    /// Why it failed, typed: the server's `ErrorCode`, an input found wrong on the device, or
    /// no answer at all.
    public enum Reason: Equatable, Hashable, Sendable {
        /// The server refused, with the contract's stable code.
        case refused(ErrorCode)
        /// An input is not valid; checked here before anything was sent.
        case invalid(field: String)
        /// The server could not be reached: nothing can be assumed recorded.
        case offline
        /// No session is stored: sign in.
        case notSignedIn
    }

    public var message: String
    public var reason: Reason?

    public init(message: String, reason: Reason? = nil) {
        self.message = message
        self.reason = reason
    }

    public init(_ error: any Error) {
        switch error {
        case let error as UserFacingError:
            self = error
        case let error as APIError:
            self.init(message: error.message, reason: Self.reason(error))
        case let error as ValidationError:
            self.init(message: error.message(in: Words.app), reason: .invalid(field: error.field))
        case let error as any LocalizedError where error.errorDescription != nil:
            self.init(message: error.errorDescription!)
        default:
            self.init(message: Words.app("app.error.generic"))
        }
    }

    private static func reason(_ error: APIError) -> Reason? {
        switch error {
        case .offline: .offline
        case .notSignedIn: .notSignedIn
        case let .server(_, code, _, _): code.map(Reason.refused)
        case .invalidResponse: nil
        }
    }

    /// The device could not reach the server: a state to show, not a failure to apologise for.
    public var isOffline: Bool { reason == .offline }

    /// The session is gone: the person must sign in again.
    public var isUnauthorized: Bool { reason == .notSignedIn || reason == .refused(.unauthorized) }
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
