import ComposableCore

extension TestStore {
    /// Checks one step: applying `update` to `expectedBase` must give `actual` (exhaustive), or
    /// at least agree with `actual` on what `update` touches (non-exhaustive). Afterwards the
    /// actual state is the base of the next step, so one mistake is reported once, not at every
    /// later step.
    func assertState(
        from expectedBase: State,
        to actual: State,
        _ update: ((inout State) throws -> Void)?,
        _ location: SourceLocation,
        requireChange: Bool = true
    ) {
        defer { self.assertedState = actual }
        var expected = expectedBase
        do {
            try update?(&expected)
        } catch {
            location.report("Threw error: \(error)")
            return
        }
        switch self.exhaustivity {
        case .on:
            if expected != actual {
                location.report(
                    """
                    A state change does not match expectation: …

                    \(diff(expected, actual, format: .proportional) ?? String(customDumping: actual))

                    (Expected: −, Actual: +)
                    """
                )
            } else if requireChange, update != nil, expected == expectedBase {
                location.report(
                    """
                    Expected state to change, but no change occurred.

                    The trailing closure made no observable modifications to state. If no change to \
                    state is expected, omit the trailing closure.
                    """
                )
            }

        case .off:
            guard expected != actual else { return }
            // Other parts of state may have changed unasserted; only what `update` sets must hold.
            var expectedFromActual = actual
            try? update?(&expectedFromActual)
            if expectedFromActual != actual {
                location.report(
                    """
                    A state change does not match expectation: …

                    \(diff(expectedFromActual, actual, format: .proportional) ?? "")

                    (Expected: −, Actual: +)
                    """
                )
            }
        }
    }
}
