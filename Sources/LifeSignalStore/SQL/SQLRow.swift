import Foundation
import LifeSignalModels

/// One result row, read by column name.
public struct SQLRow: Sendable {
    public let columns: [String]
    public let values: [SQLValue]

    public init(columns: [String], values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    public subscript(_ name: String) -> SQLValue {
        guard let index = columns.firstIndex(of: name) else { return .null }
        return values[index]
    }

    public func int(_ name: String) throws -> Int { Int(try int64(name)) }

    public func int64(_ name: String) throws -> Int64 {
        switch self[name] {
        case let .integer(value): return value
        case let .real(value): return Int64(value)
        case let .text(text) where Int64(text) != nil: return Int64(text)!
        default: throw StoreError.decoding("column \(name) is not an integer")
        }
    }

    public func optionalInt(_ name: String) throws -> Int? {
        if case .null = self[name] { return nil }
        return try int(name)
    }

    public func bool(_ name: String) throws -> Bool { try int64(name) != 0 }

    public func string(_ name: String) throws -> String {
        switch self[name] {
        case let .text(value): return value
        case let .blob(bytes): return String(decoding: bytes, as: UTF8.self)
        default: throw StoreError.decoding("column \(name) is not text")
        }
    }

    /// A stored enumeration value. An unknown value is a corrupt row, never a default: reading
    /// `sent` as `queued` would send a message again, reading a kind as another would word it
    /// wrongly.
    public func value<Value: RawRepresentable>(
        _ name: String, as type: Value.Type = Value.self
    ) throws -> Value where Value.RawValue == String {
        let text = try string(name)
        guard let value = Value(rawValue: text) else {
            throw StoreError.decoding("column \(name) holds unknown \(Value.self) \"\(text)\"")
        }
        return value
    }

    /// An optional stored enumeration value: NULL is nil, an unknown value is a corrupt row.
    public func optionalValue<Value: RawRepresentable>(
        _ name: String, as type: Value.Type = Value.self
    ) throws -> Value? where Value.RawValue == String {
        if case .null = self[name] { return nil }
        return try value(name, as: type)
    }

    public func optionalString(_ name: String) throws -> String? {
        if case .null = self[name] { return nil }
        return try string(name)
    }

    public func date(_ name: String) throws -> Date { Date(milliseconds: try int64(name)) }

    public func optionalDate(_ name: String) throws -> Date? {
        if case .null = self[name] { return nil }
        return try date(name)
    }

    public func id<Tag>(_ name: String, as: Identifier<Tag>.Type = Identifier<Tag>.self) throws -> Identifier<Tag> {
        let text = try string(name)
        guard let id = Identifier<Tag>(string: text) else {
            throw StoreError.decoding("column \(name) is not a UUID")
        }
        return id
    }

    public func optionalID<Tag>(_ name: String, as: Identifier<Tag>.Type = Identifier<Tag>.self) throws -> Identifier<Tag>? {
        if case .null = self[name] { return nil }
        return try id(name)
    }

    public func blob(_ name: String) throws -> [UInt8]? {
        switch self[name] {
        case .null: return nil
        case let .blob(bytes): return bytes
        case let .text(text): return Array(text.utf8)
        default: throw StoreError.decoding("column \(name) is not a blob")
        }
    }
}
