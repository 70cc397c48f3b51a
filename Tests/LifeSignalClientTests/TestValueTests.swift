import Dependencies
import Foundation
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels
import Testing

@Suite("Test and preview values")
struct TestValueTests {
    @Test func testValuesFailWhenCalled() async {
        // The unimplemented endpoint reports an issue and throws.
        await withKnownIssue(isIntermittent: true) {
            await #expect(throws: (any Error).self) { try await CheckInClient.testValue.status() }
            await #expect(throws: (any Error).self) { try await AuthClient.testValue.requestCode(phone: "+1") }
        }
    }

    @Test func previewValuesAnswer() async throws {
        #expect(try await CheckInClient.previewValue.status() == .preview)
        #expect(try await ContactClient.previewValue.list(sort: .urgency).dependents.count == 1)
        let result = try await CheckInClient.previewValue.checkIn(id: CheckInID(UUID()), clientAt: Date())
        guard case .recorded = result else {
            Issue.record("preview check-ins are recorded")
            return
        }
        var events: [StreamEvent] = []
        for try await event in NotificationClient.previewValue.events() { events.append(event) }
        #expect(events == [.status(.preview)])
    }

    @Test func dependenciesResolveTheirKeys() async throws {
        try await withDependencies {
            $0.checkInClient.status = { .preview }
        } operation: {
            @Dependency(\.checkInClient) var checkInClient
            let status = try await checkInClient.status()
            #expect(status == .preview)
        }
    }

    @Test func theTokenFileIsPrivate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-token-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("lifesignal/token")
        let tokens = TokenStorageClient.file(at: file)
        #expect(try tokens.load() == nil)
        try tokens.save(token: "secret")
        #expect(try tokens.load() == "secret")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        try tokens.delete()
        #expect(try tokens.load() == nil)
    }

    @Test func theConfigDirectoryFollowsXDG() {
        #expect(ConfigDirectory.current(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]).path == "/x/lifesignal")
        #expect(ConfigDirectory.current(environment: ["HOME": "/h"]).path == "/h/.config/lifesignal")
    }
}
