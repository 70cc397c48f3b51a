import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalModels

/// The person's own profile, settings, avatar, phone number, pause, data export and account.
@DependencyClient
public struct UserClient: Sendable {
    public var profile: @Sendable () async throws -> User
    /// Applies the changes given; absent fields stay as they are.
    public var updateProfile: @Sendable (_ changes: ProfileChanges) async throws -> User
    /// Pauses from now until a date (nil resumes now); while an alert about a missed check-in
    /// is open, `openIncident` says what becomes of it.
    public var setPause: @Sendable (_ until: Date?, _ openIncident: OpenIncidentChoice?) async throws -> CheckInStatus
    /// Uploads a PNG or JPEG of at most 1 MiB.
    public var uploadAvatar: @Sendable (_ image: Data) async throws -> Void
    public var deleteAvatar: @Sendable () async throws -> Void
    /// The avatar of the person or of one of their contacts.
    public var avatar: @Sendable (_ userID: UserID) async throws -> Data
    /// Sends a code to the new number.
    public var requestPhoneChange: @Sendable (_ phone: String) async throws -> CodeRequest
    /// Confirms the new number with its code.
    public var confirmPhoneChange: @Sendable (_ phone: String, _ code: String) async throws -> User
    /// Deletes the account, its links, pings and history, and forgets the stored token.
    public var deleteAccount: @Sendable () async throws -> Void
    /// The person's own sealed details (written with `updateProfile`'s `sealedDetails`).
    public var sealedDetails: @Sendable () async throws -> SealedDetails
    /// Everything of the person's as the server wrote it (`DataExport`, JSON): the bytes, to be
    /// saved as they came.
    public var exportData: @Sendable () async throws -> Data
    /// The person's check-ins as CSV, as the server wrote them.
    public var exportCheckIns: @Sendable () async throws -> Data
}

extension UserClient: TestDependencyKey {
    public static let testValue = UserClient()

    public static let previewValue = UserClient(
        profile: { .preview },
        updateProfile: { changes in
            var user = User.preview
            if let first = changes.firstName { user.firstName = first }
            if let last = changes.lastName { user.lastName = last }
            if let note = changes.emergencyNote { user.emergencyNote = note }
            if let schedule = changes.schedule { user.schedule = schedule }
            if let reminders = changes.reminders { user.reminders = reminders }
            if let grace = changes.graceMinutes { user.graceMinutes = grace }
            return user
        },
        setPause: { until, _ in
            var status = CheckInStatus.preview
            status.pausedUntil = until
            status.state = until == nil ? .ok : .paused
            return status
        },
        uploadAvatar: { _ in },
        deleteAvatar: {},
        avatar: { _ in Data() },
        requestPhoneChange: { phone in
            CodeRequest(phone: phone, expiresAt: Date().addingTimeInterval(300), resendAfter: Date().addingTimeInterval(60))
        },
        confirmPhoneChange: { phone, _ in
            var user = User.preview
            user.phone = phone
            return user
        },
        deleteAccount: {},
        sealedDetails: { SealedDetails(details: "Key under the blue pot.", updatedAt: Date()) },
        exportData: { Data("{}".utf8) },
        exportCheckIns: { Data("id,at,source,recorded_by,client_at,device\r\n".utf8) }
    )
}

extension DependencyValues {
    public var userClient: UserClient {
        get { self[UserClient.self] }
        set { self[UserClient.self] = newValue }
    }
}
