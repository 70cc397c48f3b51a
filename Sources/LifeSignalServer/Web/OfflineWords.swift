import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalLanguage

/// The offline page's words in every shipped language, as a script the service worker caches
/// with the page (`/static/offline-words.js`): offline there is no server to render for the
/// reader, so `offline.js` picks the language the app last showed, else the browser's.
enum OfflineWords {
    static let keys = [
        "web.offline.title", "web.offline.heading", "web.offline.back", "web.offline.still", "web.offline.imOK",
        "web.offline.saved", "web.offline.danger",
    ]

    /// `window.LIFESIGNAL_OFFLINE = {"de": {"dir": "ltr", "web.offline.heading": "…"}, …};`
    static func script(_ catalogue: Catalogue = .bundled) -> String {
        var all: [String: [String: String]] = [:]
        for language in catalogue.languages {
            let words = Words(language, catalogue: catalogue)
            var these = Dictionary(uniqueKeysWithValues: keys.map { ($0, words($0)) })
            these["dir"] = language.direction
            all[language.tag] = these
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(all)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "window.LIFESIGNAL_OFFLINE = \(json);\n"
    }

    static func response() -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: script())))
    }
}
