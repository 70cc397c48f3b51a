import Foundation
import Hummingbird
import HummingbirdTesting
import LifeSignalTestSupport
import Testing

/// Every file the service worker caches when it installs is served: `cache.addAll` fails as a
/// whole if one of them is missing, and then there is no offline page at all (offline.html and
/// offline.js were once not served).
@Suite struct ServiceWorkerShellTests {
    @Test func everyFileTheServiceWorkerCachesIsServed() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let script = try await client.execute(uri: "/sw.js", method: .get) { String(buffer: $0.body) }
            let list = try #require(script.firstMatch(of: #/var SHELL = \[([^\]]*)\]/#)).output.1
            let paths = list.matches(of: #/"([^"]+)"/#).map { String($0.output.1) }
            #expect(paths.contains("/static/offline.html") && paths.contains("/static/offline.js"), "\(paths)")
            for path in paths {
                let (status, type) = try await client.execute(uri: path, method: .get) { ($0.status, $0.headers[.contentType]) }
                #expect(status == .ok, "\(path) is not served")
                #expect(type != nil, "\(path) has no content type")
            }
            let page = try await client.execute(uri: "/static/offline.html", method: .get) { $0.headers[.contentType] }
            #expect(page == "text/html; charset=utf-8")
        }
    }
}
