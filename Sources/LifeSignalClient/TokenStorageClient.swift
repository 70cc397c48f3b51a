import Dependencies
import DependenciesMacros
import Synchronization

/// Where the session's bearer token is kept (iOS: the Keychain; Linux: a 0600 file in the
/// config directory, see `TokenStorageClient.file(at:)`).
@DependencyClient
public struct TokenStorageClient: Sendable {
    /// The stored token, or nil.
    public var load: @Sendable () throws -> String?
    public var save: @Sendable (_ token: String) throws -> Void
    public var delete: @Sendable () throws -> Void
}

extension TokenStorageClient: TestDependencyKey {
    public static let testValue = TokenStorageClient()
    public static let previewValue = TokenStorageClient.inMemory("preview-token")
}

extension TokenStorageClient {
    /// Kept in memory only: previews and tests.
    public static func inMemory(_ initial: String? = nil) -> TokenStorageClient {
        let box = TokenBox(initial)
        return TokenStorageClient(
            load: { box.token.withLock { $0 } },
            save: { new in box.token.withLock { $0 = new } },
            delete: { box.token.withLock { $0 = nil } }
        )
    }
}

private final class TokenBox: Sendable {
    let token: Mutex<String?>
    init(_ token: String?) { self.token = Mutex(token) }
}

extension DependencyValues {
    public var tokenStorageClient: TokenStorageClient {
        get { self[TokenStorageClient.self] }
        set { self[TokenStorageClient.self] = newValue }
    }
}
