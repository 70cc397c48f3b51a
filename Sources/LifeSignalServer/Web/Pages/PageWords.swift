import Foundation
import LifeSignalLanguage

/// The page words a template reads by name: every catalogue key under `web.` without
/// placeholders, nested by the parts of its key, so `{{w.home.emergency}}` is
/// `web.home.emergency` in the reader's language. Sentences with data in them are made by the
/// page's view model (`say("web.person.call", ["name": …])`).
enum PageWords {
    static func all(_ words: Words) -> [String: Any] {
        var root: [String: Any] = [:]
        for (key, entries) in words.catalogue.entries where key.hasPrefix("web.") {
            guard case .text(let english)? = entries[.english], Catalogue.placeholders(in: english).isEmpty else { continue }
            insert(words(key), at: key.split(separator: ".").dropFirst().map(String.init), into: &root)
        }
        return root
    }

    /// The words `app.js` writes itself (`web.js.*`, `web.status.*`, `web.duration.*`), as a
    /// JSON object for the page's `<script type="application/json" id="page-words">`; slashes
    /// are escaped, so no text can close the script element.
    static func script(_ words: Words) -> String {
        var out: [String: String] = [:]
        for key in words.catalogue.entries.keys
        where key.hasPrefix("web.js.") || key.hasPrefix("web.status.") || key.hasPrefix("web.duration.") {
            out[String(key.dropFirst(4))] = words(key)
        }
        let data = (try? JSONSerialization.data(withJSONObject: out, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
    }

    private static func insert(_ text: String, at path: [String], into node: inout [String: Any]) {
        guard let first = path.first else { return }
        if path.count == 1 {
            node[first] = text
            return
        }
        var child = node[first] as? [String: Any] ?? [:]
        insert(text, at: Array(path.dropFirst()), into: &child)
        node[first] = child
    }
}
