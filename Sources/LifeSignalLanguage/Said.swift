import Foundation

/// A sentence kept by its catalogue key and arguments, to be said later in a reader's words: a
/// refusal made deep in the service, rendered by whoever shows it (a page, the API, the CLI).
public struct Said: Sendable, Hashable {
    public var key: String
    /// Names and numbers the sentence's `{placeholders}` take; never translated.
    public var arguments: [String: String]
    /// Picks the plural form, and is `{count}`.
    public var count: Int?

    public init(_ key: String, _ arguments: [String: String] = [:], count: Int? = nil) {
        self.key = key
        self.arguments = arguments
        self.count = count
    }
}

extension Words {
    /// The sentence in these words.
    public func callAsFunction(_ said: Said) -> String {
        self(said.key, said.arguments, count: said.count)
    }
}
