import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct DataExportFeatureTests {
    nonisolated static let document = Data(#"{"formatVersion":1}"#.utf8)
    nonisolated static let csv = Data("id,at,source,recorded_by,client_at,device\r\n".utf8)

    @Test func everythingGoesToTheShareSheetAsTheServerWroteIt() async throws {
        let exported = LockIsolated<[(Data, String)]>([])
        let saved = URL(fileURLWithPath: "/files/lifesignal-export-2027-01-15.json")
        let store = TestStore(initialState: DataExportFeature.State()) {
            DataExportFeature()
        } withDependencies: {
            $0.date = .constant(Fixtures.now)
            $0.userClient.exportData = { Self.document }
            $0.fileExportClient.export = { data, name in
                exported.withValue { $0.append((data, name)) }
                return saved
            }
        }
        await store.send(.downloadButtonTapped(.everything)) { $0.exporting = .everything }
        await store.receive(\.exportResponse.success) {
            $0.exporting = nil
            $0.exportedTo = saved
        }
        #expect(exported.value.map(\.0) == [Self.document])
        // The day of the download, in UTC.
        #expect(exported.value.map(\.1) == ["lifesignal-export-2027-01-15.json"])
    }

    @Test func checkInsGoAsCSVAndACancelledSheetSavesNothing() async throws {
        let exported = LockIsolated<[(Data, String)]>([])
        var state = DataExportFeature.State()
        state.exportedTo = URL(fileURLWithPath: "/files/earlier.json")
        let store = TestStore(initialState: state) {
            DataExportFeature()
        } withDependencies: {
            $0.date = .constant(Fixtures.now)
            $0.userClient.exportCheckIns = { Self.csv }
            $0.fileExportClient.export = { data, name in
                exported.withValue { $0.append((data, name)) }
                return nil
            }
        }
        await store.send(.downloadButtonTapped(.checkIns)) {
            $0.exporting = .checkIns
            $0.exportedTo = nil
        }
        await store.receive(\.exportResponse.success) { $0.exporting = nil }
        #expect(exported.value.map(\.0) == [Self.csv])
        #expect(exported.value.map(\.1) == ["lifesignal-check-ins-2027-01-15.csv"])
    }

    @Test func tooManyDownloadsShowsTheServersWordsAndNothingIsSaved() async {
        let message = "You have downloaded your data several times in the last hour. Please wait a while before the next download."
        let store = TestStore(initialState: DataExportFeature.State()) {
            DataExportFeature()
        } withDependencies: {
            $0.date = .constant(Fixtures.now)
            $0.userClient.exportData = {
                throw APIError.server(status: 429, code: .tooManyExports, message: message, field: nil)
            }
            // Not set: the share sheet must never open.
        }
        await store.send(.downloadButtonTapped(.everything)) { $0.exporting = .everything }
        await store.receive(\.exportResponse.failure) {
            $0.exporting = nil
            $0.destination = .alert(.failure(UserFacingError(message: message, reason: .refused(.tooManyExports))))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
    }

    @Test func aSecondTapWhileOneIsUnderWayDoesNothing() async {
        let (gate, open) = AsyncStream<Void>.makeStream()
        let store = TestStore(initialState: DataExportFeature.State()) {
            DataExportFeature()
        } withDependencies: {
            $0.date = .constant(Fixtures.now)
            $0.userClient.exportData = {
                for await _ in gate { break }
                return Self.document
            }
            $0.fileExportClient.export = { _, _ in nil }
        }
        await store.send(.downloadButtonTapped(.everything)) { $0.exporting = .everything }
        await store.send(.downloadButtonTapped(.checkIns))
        open.yield()
        await store.receive(\.exportResponse.success) { $0.exporting = nil }
    }

    /// The profile screen holds the download: its state and actions are the profile's.
    @Test func theProfileOffersTheDownload() async {
        let saved = URL(fileURLWithPath: "/files/lifesignal-export-2027-01-15.json")
        let store = TestStore(initialState: ProfileFeature.State(user: Fixtures.user)) {
            ProfileFeature()
        } withDependencies: {
            $0.date = .constant(Fixtures.now)
            $0.userClient.exportData = { Self.document }
            $0.fileExportClient.export = { _, _ in saved }
        }
        await store.send(.dataExport(.downloadButtonTapped(.everything))) { $0.dataExport.exporting = .everything }
        await store.receive(\.dataExport.exportResponse.success) {
            $0.dataExport.exporting = nil
            $0.dataExport.exportedTo = saved
        }
    }
}
