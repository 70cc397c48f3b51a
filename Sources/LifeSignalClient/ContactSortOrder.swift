/// How the contacts lists are ordered by the server (`?sort=`).
public enum ContactSortOrder: String, CaseIterable, Hashable, Sendable {
    /// Dependents: manual alert, non-responsive, pinged, then least time left.
    /// Responders: pending pings first.
    case urgency
    case name
    case dateAdded = "date_added"
}
