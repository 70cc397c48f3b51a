import Foundation
import Testing

@testable import LifeSignalServer

/// Every page names its template in its source (`static let template = "…"`); each one must be
/// in the library the server loads at start, so no page can render as "Missing page".
@Suite struct WebTemplateTests {
    @Test func everyPageTemplateIsLoaded() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/LifeSignalServer").standardized
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        let pattern = #/static let template(?:: String)? = "([^"]+)"/#
        var names: [String] = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            names += text.matches(of: pattern).map { String($0.output.1) }
        }
        // The pages counted when this test was written; fewer means the pattern stopped matching.
        #expect(names.count >= 27)
        let renderer = WebRenderer()
        for name in names {
            #expect(renderer.library.getTemplate(named: name) != nil, "no template \(name).mustache")
        }
        #expect(renderer.library.getTemplate(named: "no-such-page") == nil)
    }
}
