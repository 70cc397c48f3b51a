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

    /// The offline page is said in every shipped language: each sentence it marks (`data-w`)
    /// comes from the catalogue in each language, cached with it, with the language's direction.
    @Test func theOfflinePagesWordsAreInEveryLanguage() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let html = try await client.execute(uri: "/static/offline.html", method: .get) { String(buffer: $0.body) }
            let marked = Set(html.matches(of: #/data-w="([^"]+)"/#).map { String($0.output.1) })
            #expect(marked.count == 6, "\(marked)")
            #expect(html.contains(#"<script src="/static/offline-words.js" defer></script>"#))
            let (type, script) = try await client.execute(uri: "/static/offline-words.js", method: .get) {
                ($0.headers[.contentType], String(buffer: $0.body))
            }
            #expect(type == "text/javascript; charset=utf-8")
            let prefix = "window.LIFESIGNAL_OFFLINE = "
            #expect(script.hasPrefix(prefix))
            let json = Data(script.dropFirst(prefix.count).dropLast(2).utf8)
            let all = try JSONDecoder().decode([String: [String: String]].self, from: json)
            #expect(Set(all.keys) == ["en", "de", "es", "fr", "ar"])
            for (language, words) in all {
                #expect(marked.subtracting(words.keys).isEmpty, "\(language)")
                #expect(words["web.offline.saved"] != nil)
            }
            #expect(all["de"]?["web.offline.heading"] == "Sie sind offline")
            #expect(all["ar"]?["dir"] == "rtl" && all["fr"]?["dir"] == "ltr")
            #expect(all["en"]?["web.offline.heading"] == "You're offline")
        }
    }
}
