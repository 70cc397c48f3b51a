import Dependencies
import DependenciesMacros
import Foundation

/// Hands a file to the person (iOS: the share sheet's "Save to Files"), e.g. the timeline
/// export. The live value belongs to the iOS target (UIActivityViewController): Linux has no
/// counterpart, so only test and preview values exist here.
@DependencyClient
public struct FileExportClient: Sendable {
    /// Offers `data` as a file named `name`; returns where it was saved, or nil when the
    /// person cancelled.
    public var export: @Sendable (_ data: Data, _ name: String) async throws -> URL?
}

extension FileExportClient: TestDependencyKey {
    public static let testValue = FileExportClient()
    public static let previewValue = FileExportClient(export: { _, name in
        FileManager.default.temporaryDirectory.appendingPathComponent(name)
    })
}

extension DependencyValues {
    public var fileExportClient: FileExportClient {
        get { self[FileExportClient.self] }
        set { self[FileExportClient.self] = newValue }
    }
}
