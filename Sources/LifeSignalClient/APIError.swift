import Foundation
import LifeSignalModels

/// Why a call to the LifeSignal API failed. `offline` means no answer came back at all
/// (connection refused, DNS, timeout): nothing can be assumed recorded, and an idempotent
/// request such as a check-in may be queued and sent again. Every other case is an answer.
public enum APIError: Error, Hashable, Sendable, LocalizedError {
    /// The server could not be reached or did not answer in time.
    case offline(String)
    /// The server answered with the `/v1` error envelope. `code` is nil when the server sent a
    /// code this build does not know (a newer server).
    case server(status: Int, code: ErrorCode?, message: String, field: String?)
    /// No token is stored: the request was not sent.
    case notSignedIn
    /// The server answered something that is not the contract (bad JSON, a proxy's HTML page).
    case invalidResponse(status: Int, String)

    /// The server's stable code when it refused (`code_expired`, `already_pinged`…); nil when
    /// no envelope came back (or its code is newer than this build).
    public var code: ErrorCode? {
        if case let .server(_, code, _, _) = self { return code }
        return nil
    }

    /// The HTTP status, when the server answered.
    public var status: Int? {
        switch self {
        case let .server(status, _, _, _), let .invalidResponse(status, _): status
        case .offline, .notSignedIn: nil
        }
    }

    /// A message fit to show a person.
    public var message: String {
        switch self {
        case .offline: "Can't reach LifeSignal. Check your connection and try again."
        case let .server(_, _, message, _): message
        case .notSignedIn: "You're not signed in."
        case .invalidResponse: "LifeSignal sent an answer this app doesn't understand. Try again later."
        }
    }

    public var errorDescription: String? { message }

    public var isOffline: Bool {
        if case .offline = self { return true }
        return false
    }

    /// True when the server refused the token (or there is none): sign in again.
    public var isUnauthorized: Bool {
        switch self {
        case .notSignedIn: true
        case let .server(status, _, _, _): status == 401
        default: false
        }
    }
}
