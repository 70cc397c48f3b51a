import LifeSignalModels

/// The adapters configured for this server, one per channel kind.
public struct ChannelRegistry: Sendable {
    private let adapters: [ChannelKind: any ChannelAdapter]

    /// Registers each adapter under its ``ChannelAdapter/kind``; when two share a kind, the last one wins.
    public init(_ adapters: [any ChannelAdapter]) {
        var byKind: [ChannelKind: any ChannelAdapter] = [:]
        for adapter in adapters { byKind[adapter.kind] = adapter }
        self.adapters = byKind
    }

    /// The adapter for `kind`, or `nil` when that channel is not configured on this server.
    public func adapter(for kind: ChannelKind) -> (any ChannelAdapter)? {
        adapters[kind]
    }

    /// The channel kinds this server can send to.
    public var kinds: Set<ChannelKind> { Set(adapters.keys) }
}
