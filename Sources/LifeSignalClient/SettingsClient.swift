import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalModels

/// Where the person is reached (channels) and the record of what happened (timeline).
@DependencyClient
public struct SettingsClient: Sendable {
    public var channels: @Sendable () async throws -> [Channel]
    public var addChannel: @Sendable (_ registration: ChannelRegistration) async throws -> Channel
    public var removeChannel: @Sendable (_ id: ChannelID) async throws -> Void
    /// Timeline entries after sequence number `after` (0 for all).
    public var timeline: @Sendable (_ after: Int) async throws -> [TimelineEntry]
    /// Checks the timeline's hash chain on the server.
    public var verifyTimeline: @Sendable () async throws -> TimelineVerification
}

extension SettingsClient: TestDependencyKey {
    public static let testValue = SettingsClient()

    public static let previewValue = SettingsClient(
        channels: { [.preview] },
        addChannel: { registration in
            Channel(
                id: ChannelID(UUID()), userID: User.preview.id, kind: registration.kind, address: registration.address,
                priority: 1, createdAt: Date())
        },
        removeChannel: { _ in },
        timeline: { _ in [] },
        verifyTimeline: { TimelineVerification(valid: true, entries: 0, firstBadSequence: nil, headHash: TimelineEntry.genesisHash) }
    )
}

extension DependencyValues {
    public var settingsClient: SettingsClient {
        get { self[SettingsClient.self] }
        set { self[SettingsClient.self] = newValue }
    }
}
