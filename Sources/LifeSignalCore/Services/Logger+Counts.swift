import Logging

extension Logger.Metadata {
    /// A background pass's counts as a log line's fields (`EnginePass.counts`, `RetentionPass.counts`).
    init(counts: [(key: String, value: Int)]) {
        self.init(uniqueKeysWithValues: counts.map { ($0.key, .stringConvertible($0.value)) })
    }
}
