import Logging

extension Logger.Metadata {
    /// A background pass's counts as a log line's fields (`EnginePass.counts`, `RetentionPass.counts`).
    init(counts: KeyValuePairs<String, Int>) {
        self.init(uniqueKeysWithValues: counts.map { ($0.key, .stringConvertible($0.value)) })
    }
}
