import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels

/// My timeline: the hash-chained record of everything that happened to me, a page at a time
/// (oldest first, as the server keeps it), checked against the server's chain on request, and
/// exported whole as a JSON file through the share sheet (`FileExportClient`).
public struct TimelineFeature: Reducer, Sendable {
    /// Entries asked for at once.
    public static let pageSize = 50

    public struct State: Equatable, Sendable {
        public var entries: [TimelineEntry] = []
        /// False once a page came back short: everything is here.
        public var hasMore = true
        public var isLoading = false
        public var verification: TimelineVerification?
        public var isVerifying = false
        public var isExporting = false
        /// Where the last export was saved.
        public var exportedTo: URL?
        @PresentationState public var destination: Destination.State?

        public init() {}
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case task
        /// The list was scrolled to its end (or "Load more" tapped).
        case loadMore
        case pageResponse(Result<[TimelineEntry], UserFacingError>)
        case verifyButtonTapped
        case verifyResponse(Result<TimelineVerification, UserFacingError>)
        case exportButtonTapped
        case exportResponse(Result<URL?, UserFacingError>)
        case destination(PresentationAction<Destination.Action>)
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    @Dependency(\.settingsClient) var settingsClient
    @Dependency(\.fileExportClient) var fileExport

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .task:
                guard state.entries.isEmpty else { return .none }
                return loadPage(&state)

            case .loadMore:
                guard state.hasMore else { return .none }
                return loadPage(&state)

            case let .pageResponse(.success(page)):
                state.isLoading = false
                let last = state.entries.last?.sequence ?? 0
                state.entries.append(contentsOf: page.filter { $0.sequence > last })
                state.hasMore = page.count == Self.pageSize
                return .none

            case let .pageResponse(.failure(error)), let .verifyResponse(.failure(error)), let .exportResponse(.failure(error)):
                state.isLoading = false
                state.isVerifying = false
                state.isExporting = false
                state.destination = .alert(.failure(error))
                return .none

            case .verifyButtonTapped:
                guard !state.isVerifying else { return .none }
                state.isVerifying = true
                state.verification = nil
                return .catching(Action.verifyResponse) { try await settingsClient.verifyTimeline() }

            case let .verifyResponse(.success(verification)):
                state.isVerifying = false
                state.verification = verification
                return .none

            case .exportButtonTapped:
                guard !state.isExporting else { return .none }
                state.isExporting = true
                state.exportedTo = nil
                return .catching(Action.exportResponse) {
                    // Every entry, not just the pages on screen.
                    var all: [TimelineEntry] = []
                    while true {
                        let page = try await settingsClient.timelinePage(all.last?.sequence ?? 0, 1000)
                        all += page
                        if page.count < 1000 { break }
                    }
                    return try await fileExport.export(try Self.exportEncoder.encode(all), "lifesignal-timeline.json")
                }

            case let .exportResponse(.success(url)):
                state.isExporting = false
                state.exportedTo = url
                return .none

            case .destination:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }

    /// The export's JSON: the API's form (ISO 8601 times), readable, stable key order.
    static let exportEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private func loadPage(_ state: inout State) -> Effect<Action> {
        guard !state.isLoading else { return .none }
        state.isLoading = true
        let after = state.entries.last?.sequence ?? 0
        return .catching(Action.pageResponse) { try await settingsClient.timelinePage(after, Self.pageSize) }
    }
}
