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
    /// Proves a new text, call or e-mail channel with the code sent to it.
    public var verifyChannel: @Sendable (_ id: ChannelID, _ code: String) async throws -> Channel
    /// Timeline entries after sequence number `after` (0 for all), up to the server's page size.
    public var timeline: @Sendable (_ after: Int) async throws -> [TimelineEntry]
    /// At most `limit` (1–10,000) timeline entries after sequence number `after`; an empty
    /// page means the end was reached.
    public var timelinePage: @Sendable (_ after: Int, _ limit: Int) async throws -> [TimelineEntry]
    /// Checks the timeline's hash chain on the server.
    public var verifyTimeline: @Sendable () async throws -> TimelineVerification
    /// "If you miss your next deadline": the planned reminders and who would be told, and how.
    public var preview: @Sendable () async throws -> [PreviewStep]
    /// Sends a test notification to every responder on every channel.
    public var runDrill: @Sendable () async throws -> DrillReport
    /// A drill run earlier, with each delivery's current outcome.
    public var drill: @Sendable (_ id: DrillID) async throws -> DrillReport
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
        verifyChannel: { id, _ in
            Channel(
                id: id, userID: User.preview.id, kind: .sms, address: User.preview.phone, priority: 1,
                createdAt: Date(), verifiedAt: Date())
        },
        timeline: { _ in [] },
        timelinePage: { _, _ in [] },
        verifyTimeline: { TimelineVerification(valid: true, entries: 0, firstBadSequence: nil, headHash: TimelineEntry.genesisHash) },
        preview: {
            [
                PreviewStep(at: Date().addingTimeInterval(3600), kind: .reminder, summary: "Reminder to you"),
                PreviewStep(
                    at: Date().addingTimeInterval(7200), kind: .incident, summary: "Alert \(Contact.preview.firstName) by SMS",
                    responders: [.init(userID: Contact.preview.userID, name: Contact.preview.fullName, channels: [.sms])]),
            ]
        },
        runDrill: { DrillReport(id: DrillID(UUID()), createdAt: Date(), recipients: []) },
        drill: { id in DrillReport(id: id, createdAt: Date(), recipients: []) }
    )
}

extension DependencyValues {
    public var settingsClient: SettingsClient {
        get { self[SettingsClient.self] }
        set { self[SettingsClient.self] = newValue }
    }
}
