import Foundation

/// A value bound to or read from a SQL statement. The two stores agree on these five
/// kinds; dates are stored as integer milliseconds since 1970 in both.
public enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// Types that bind as a `SQLValue`.
public protocol SQLBindable: Sendable {
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLBindable { public var sqlValue: SQLValue { self } }
extension Int: SQLBindable { public var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Int64: SQLBindable { public var sqlValue: SQLValue { .integer(self) } }
extension Bool: SQLBindable { public var sqlValue: SQLValue { .integer(self ? 1 : 0) } }
extension Double: SQLBindable { public var sqlValue: SQLValue { .real(self) } }
extension String: SQLBindable { public var sqlValue: SQLValue { .text(self) } }
extension Date: SQLBindable { public var sqlValue: SQLValue { .integer(self.milliseconds) } }
extension Identifier: SQLBindable { public var sqlValue: SQLValue { .text(description) } }
extension Optional: SQLBindable where Wrapped: SQLBindable {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

import LifeSignalModels

extension Date {
    /// Milliseconds since 1970, the stores' representation of time.
    public var milliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
    public init(milliseconds: Int64) { self.init(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
