/// Failures of the storage layer. The service maps them to user-facing errors.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A uniqueness or foreign-key constraint refused the write.
    case constraint(String)
    /// The database could not be reached or answered with an error.
    case unavailable(String)
    /// The database is out of space (a full disk, SQLite's page limit, PostgreSQL's
    /// `disk_full`): reads still work, writes do not until space is freed.
    case full(String)
    /// A stored value could not be read back.
    case decoding(String)
    /// Any other database error.
    case sql(String)

    public var description: String {
        switch self {
        case let .constraint(m): "constraint violated: \(m)"
        case let .unavailable(m): "database unavailable: \(m)"
        case let .full(m): "storage full: \(m)"
        case let .decoding(m): "stored value unreadable: \(m)"
        case let .sql(m): "database error: \(m)"
        }
    }
}
