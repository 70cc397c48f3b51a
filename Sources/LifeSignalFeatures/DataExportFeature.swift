import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels
import LifeSignalRules

/// "Download my data" on the profile: everything of mine as the server's JSON document, or my
/// check-ins as CSV, handed to the share sheet (`FileExportClient`) as the server wrote them.
public struct DataExportFeature: Reducer, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Everything (`DataExport`, JSON).
        case everything
        /// The check-ins (CSV).
        case checkIns
    }

    public struct State: Equatable, Sendable {
        /// The download under way, if one is.
        public var exporting: Kind?
        /// Where the last download was saved (nil too when the person cancelled the sheet).
        public var exportedTo: URL?
        @PresentationState public var destination: Destination.State?

        public init() {}
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case downloadButtonTapped(Kind)
        case exportResponse(Result<URL?, UserFacingError>)
        case destination(PresentationAction<Destination.Action>)
    }

    /// What this part presents: an alert when the download failed (the server's words, such
    /// as "wait a while" after too many).
    public typealias Destination = AlertDestination

    @Dependency(\.userClient) var userClient
    @Dependency(\.fileExportClient) var fileExport
    @Dependency(\.date) var date

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case let .downloadButtonTapped(kind):
                guard state.exporting == nil else { return .none }
                state.exporting = kind
                state.exportedTo = nil
                let now = date.now
                return .catching(Action.exportResponse) {
                    switch kind {
                    case .everything:
                        try await fileExport.export(
                            try await userClient.exportData(), DataExportFile.name(at: now, extension: "json"))
                    case .checkIns:
                        try await fileExport.export(try await userClient.exportCheckIns(), DataExportFile.checkInsName(at: now))
                    }
                }

            case let .exportResponse(.success(url)):
                state.exporting = nil
                state.exportedTo = url
                return .none

            case let .exportResponse(.failure(error)):
                state.exporting = nil
                state.destination = .alert(.failure(error))
                return .none

            case .destination:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }
}
