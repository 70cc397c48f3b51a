/// A sentence with one value set off in it (`<strong>`), cut around the value in the reader's
/// word order: `{{#sentTo}}{{before}}<strong>{{value}}</strong>{{after}}{{/sentTo}}`. The value
/// (a number, a time, an address) is never translated.
struct Emphasis {
    let before: String
    let value: String
    let after: String

    /// `say(key)` with `name` filled by `value` and the rest by `arguments`.
    init(_ key: String, _ name: String, _ value: String, _ arguments: [String: String] = [:]) {
        // A private-use character marks where the value goes: no catalogue text contains it.
        let mark = "\u{E000}"
        var arguments = arguments
        arguments[name] = mark
        let parts = say(key, arguments).components(separatedBy: mark)
        before = parts[0]
        after = parts.dropFirst().joined(separator: value)
        self.value = value
    }
}
