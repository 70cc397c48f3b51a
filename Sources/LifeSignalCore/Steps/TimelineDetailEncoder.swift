import Foundation
import LifeSignalModels
import LifeSignalStore

/// Writes a `TimelineDetail` as flat, sorted-key JSON of strings through `Detail.json` (the
/// hand-written writer: timeline entries are written inside every transaction). Only flat
/// values are expected; a nested container is a programming error caught by the tests of
/// every kind.
enum TimelineDetailEncoder {
    static func json(_ detail: some Encodable) -> String {
        let encoder = FieldsEncoder()
        do {
            try detail.encode(to: encoder)
        } catch {
            preconditionFailure("A timeline detail must be flat: \(error)")
        }
        return Detail.json(encoder.fields)
    }
}

private final class FieldsEncoder: Encoder {
    var fields: [String: String] = [:]
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FieldsContainer(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { preconditionFailure("A timeline detail is a flat object") }
    func singleValueContainer() -> any SingleValueEncodingContainer { preconditionFailure("A timeline detail is a flat object") }
}

private struct FieldsContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: FieldsEncoder
    var codingPath: [any CodingKey] { [] }

    private func put(_ text: String, _ key: Key) { encoder.fields[key.stringValue] = text }

    mutating func encodeNil(forKey key: Key) throws { put("", key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(value ? "true" : "false", key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(value, key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(String(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(String(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(String(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(String(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(String(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(String(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(String(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(String(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(String(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(String(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(String(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(String(value), key) }

    /// Dates as ISO 8601; identifiers and raw-value enums as the one string they encode.
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if let date = value as? Date { return put(ISODate.format(date), key) }
        let single = SingleStringEncoder()
        try value.encode(to: single)
        guard let text = single.text else { preconditionFailure("\(T.self) does not encode as one value") }
        put(text, key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("A timeline detail is a flat object")
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        preconditionFailure("A timeline detail is a flat object")
    }

    mutating func superEncoder() -> any Encoder { preconditionFailure("A timeline detail is a flat object") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { preconditionFailure("A timeline detail is a flat object") }
}

/// Captures the single string (or number, or boolean) a value such as an `Identifier` or a
/// `String` raw-value enum encodes.
private final class SingleStringEncoder: Encoder, SingleValueEncodingContainer {
    var text: String?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> { preconditionFailure("not a single value") }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { preconditionFailure("not a single value") }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { text = "" }
    func encode(_ value: Bool) throws { text = value ? "true" : "false" }
    func encode(_ value: String) throws { text = value }
    func encode(_ value: Double) throws { text = String(value) }
    func encode(_ value: Float) throws { text = String(value) }
    func encode(_ value: Int) throws { text = String(value) }
    func encode(_ value: Int8) throws { text = String(value) }
    func encode(_ value: Int16) throws { text = String(value) }
    func encode(_ value: Int32) throws { text = String(value) }
    func encode(_ value: Int64) throws { text = String(value) }
    func encode(_ value: UInt) throws { text = String(value) }
    func encode(_ value: UInt8) throws { text = String(value) }
    func encode(_ value: UInt16) throws { text = String(value) }
    func encode(_ value: UInt32) throws { text = String(value) }
    func encode(_ value: UInt64) throws { text = String(value) }
    func encode<T: Encodable>(_ value: T) throws {
        if let date = value as? Date { text = ISODate.format(date) } else { try value.encode(to: self) }
    }
}
