/// How the contact lists are ordered (`GET /v1/contacts?sort=`); the orders themselves are
/// `LifeSignalRules`'.
public enum ContactSort: String, CaseIterable, Codable, Hashable, Sendable {
    /// Dependents: manual alert, non-responsive, pinged, then least time left.
    /// Responders: pending pings first.
    case urgency
    case name
    case dateAdded = "date_added"
}
