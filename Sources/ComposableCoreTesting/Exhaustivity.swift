/// How strictly a ``TestStore`` checks a test.
public enum Exhaustivity: Equatable, Sendable {
    /// Every state change, every received action and every effect must be accounted for.
    case on
    /// Only what the test asserts is checked: assertions may name just the state they care
    /// about, unasserted received actions are skipped, and effects still running at the end are
    /// cancelled quietly. Useful for integration tests of large features.
    case off
}
