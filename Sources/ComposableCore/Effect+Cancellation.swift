extension Effect {
    /// Makes the effect cancellable by `id`.
    ///
    /// With `cancelInFlight: true`, effects already running under the same id are cancelled
    /// first, so at most one runs at a time (the "latest wins" pattern for searches).
    ///
    /// Ids are private to their navigation context: a presented child or a collection element
    /// cannot cancel a sibling's or its parent's effects by reusing an id, as in TCA.
    public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
        if case .none = self.node, !cancelInFlight { return .none }
        return Self(
            node: .cancellable(id: AnyHashableSendable(id), cancelInFlight: cancelInFlight, self)
        )
    }

    /// An effect that cancels every running effect marked cancellable with `id`.
    public static func cancel(id: some Hashable & Sendable) -> Self {
        Self(node: .cancel(id: AnyHashableSendable(id)))
    }

    /// Runs this effect after `duration` of quiet on `clock`; each new debounced effect with the
    /// same `id` cancels the one still waiting.
    public func debounce<C: Clock<Duration>>(
        id: some Hashable & Sendable,
        for duration: Duration,
        clock: C
    ) -> Self {
        Effect.concatenate(
            .run { _ in try await clock.sleep(for: duration) },
            self
        )
        .cancellable(id: id, cancelInFlight: true)
    }

    /// Runs this effect after `duration` of quiet on the `continuousClock` dependency, so a test
    /// can drive it with a `TestClock`.
    public func debounce(id: some Hashable & Sendable, for duration: Duration) -> Self {
        @Dependency(\.continuousClock) var clock
        return self.debounce(id: id, for: duration, clock: clock)
    }

    /// Wraps child effects so their cancellation ids stay inside the navigation context `id`.
    func scoped(id: some Hashable & Sendable) -> Self {
        if case .none = self.node { return .none }
        return Self(node: .scoped(id: AnyHashableSendable(id), self))
    }
}
