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
        _ location: Location,
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

/// Where a test step was written; issues are reported there.
struct Location {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt

    init(_ fileID: StaticString, _ filePath: StaticString, _ line: UInt, _ column: UInt) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    func report(_ message: String) {
        reportIssue(
            message, fileID: self.fileID, filePath: self.filePath, line: self.line, column: self.column
        )
    }
}
