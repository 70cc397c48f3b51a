import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct TimelineFeatureTests {
    nonisolated static func entry(_ n: Int) -> TimelineEntry {
        TimelineEntry(
            sequence: n, userID: Fixtures.user.id, at: Fixtures.now.addingTimeInterval(Double(n) * 60), kind: "check_in",
            summary: "Checked in in the app", detail: "{}", previousHash: String(repeating: "0", count: 64),
            hash: String(repeating: "\(n % 10)", count: 64))
    }

    nonisolated static let firstPage = (1...TimelineFeature.pageSize).map(entry)
    nonisolated static let lastPage = [entry(TimelineFeature.pageSize + 1)]

    @Test func pagesUntilAShortPageAndNoFurther() async {
        let asked = LockIsolated<[Int]>([])
        let store = TestStore(initialState: TimelineFeature.State()) {
            TimelineFeature()
        } withDependencies: {
            $0.settingsClient.timelinePage = { after, limit in
                asked.withValue { $0.append(after) }
                #expect(limit == TimelineFeature.pageSize)
                return after == 0 ? Self.firstPage : Self.lastPage
            }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(\.pageResponse.success) {
            $0.isLoading = false
            $0.entries = Self.firstPage
        }
        await store.send(.loadMore) { $0.isLoading = true }
        await store.receive(\.pageResponse.success) {
            $0.isLoading = false
            $0.entries = Self.firstPage + Self.lastPage
            $0.hasMore = false
        }
        // Everything is here: no more requests.
        await store.send(.loadMore)
        #expect(asked.value == [0, TimelineFeature.pageSize])
    }

    @Test func verifyingShowsTheServersVerdict() async {
        let broken = TimelineVerification(valid: false, entries: 51, firstBadSequence: 7, headHash: "ab", reason: "Entry 7 was changed.")
        let store = TestStore(initialState: TimelineFeature.State()) {
            TimelineFeature()
        } withDependencies: {
            $0.settingsClient.verifyTimeline = { broken }
        }
        await store.send(.verifyButtonTapped) { $0.isVerifying = true }
        await store.receive(\.verifyResponse.success) {
            $0.isVerifying = false
            $0.verification = broken
        }
    }

    @Test func exportingWritesEveryEntryAsJSONThroughTheShareSheet() async throws {
        let exported = LockIsolated<(Data, String)?>(nil)
        let saved = URL(fileURLWithPath: "/files/lifesignal-timeline.json")
        let all = (1...1001).map(Self.entry)
        let store = TestStore(initialState: TimelineFeature.State()) {
            TimelineFeature()
        } withDependencies: {
            $0.settingsClient.timelinePage = { after, limit in
                #expect(limit == 1000)
                return Array(all.drop { $0.sequence <= after }.prefix(limit))
            }
            $0.fileExportClient.export = { data, name in
                exported.setValue((data, name))
                return saved
            }
        }
        await store.send(.exportButtonTapped) { $0.isExporting = true }
        await store.receive(\.exportResponse.success) {
            $0.isExporting = false
            $0.exportedTo = saved
        }
        let (data, name) = try #require(exported.value)
        #expect(name == "lifesignal-timeline.json")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode([TimelineEntry].self, from: data) == all)
    }

    @Test func aFailedPageIsShownAndCanBeDismissed() async {
        let store = TestStore(initialState: TimelineFeature.State()) {
            TimelineFeature()
        } withDependencies: {
            $0.settingsClient.timelinePage = { _, _ in throw Fixtures.offline }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(\.pageResponse.failure) {
            $0.isLoading = false
            $0.destination = .alert(.failure(Fixtures.offlineFailure))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
    }
}
