import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalModels
import Synchronization

/// The signed-in person's profile and last known status, kept on the device (the seeds'
/// `@Shared(.fileStorage(.userProfile))`), so the app opens on its home screen with the
/// check-in button when it starts without a network, exactly when it may be needed most.
///
/// The server's copy always wins: whatever it answers replaces what is stored.
@DependencyClient
public struct ProfileStorageClient: Sendable {
    /// What was stored, or nil (never signed in on this device, signed out, or unreadable).
    public var load: @Sendable () -> StoredProfile? = { nil }
    public var save: @Sendable (_ profile: StoredProfile) throws -> Void
    /// Forgets it (signing out, deleting the account).
    public var clear: @Sendable () throws -> Void
}

/// What the device keeps of its person.
public struct StoredProfile: Codable, Hashable, Sendable {
    public var user: User
    /// The status the server last gave; nil until it gave one.
    public var status: CheckInStatus?

    public init(user: User, status: CheckInStatus? = nil) {
        self.user = user
        self.status = status
    }
}

extension ProfileStorageClient: TestDependencyKey {
    public static let testValue = ProfileStorageClient()
    public static let previewValue = ProfileStorageClient.inMemory(StoredProfile(user: .preview))
}

extension ProfileStorageClient {
    /// Kept in memory only: previews and tests that follow what was saved.
    public static func inMemory(_ initial: StoredProfile? = nil) -> ProfileStorageClient {
        let box = Mutex(initial)
        return ProfileStorageClient(
            load: { box.withLock { $0 } },
            save: { profile in box.withLock { $0 = profile } },
            clear: { box.withLock { $0 = nil } }
        )
    }
}

extension DependencyValues {
    public var profileStorageClient: ProfileStorageClient {
        get { self[ProfileStorageClient.self] }
        set { self[ProfileStorageClient.self] = newValue }
    }
}
