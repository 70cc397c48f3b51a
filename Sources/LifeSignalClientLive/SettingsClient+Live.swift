import Dependencies
import Foundation
import LifeSignalClient
import LifeSignalAPI
import LifeSignalModels

extension SettingsClient: DependencyKey {
    public static var liveValue: SettingsClient { .live(api: .fromEnvironment()) }

    public static func live(api: APIClient) -> SettingsClient {
        SettingsClient(
            channels: { try await api.send(Operations.listChannels) },
            addChannel: { registration in try await api.send(Operations.addChannel, body: registration) },
            removeChannel: { id in try await api.send(Operations.removeChannel, ByID(id)) },
            verifyChannel: { id, code in
                try await api.send(Operations.verifyChannel, ByID(id), body: ChannelCodeBody(code: code))
            },
            timeline: { after in try await api.send(Operations.getTimeline, TimelineQuery(after: after)) },
            timelinePage: { after, limit in
                try await api.send(Operations.getTimeline, TimelineQuery(after: after, limit: limit))
            },
            verifyTimeline: { try await api.send(Operations.verifyTimeline) },
            preview: { try await api.send(Operations.previewTimeline) },
            runDrill: { try await api.send(Operations.runDrill) },
            drill: { id in try await api.send(Operations.getDrill, ByID(id)) }
        )
    }
}
