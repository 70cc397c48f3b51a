import Foundation

extension UUID {
    /// A version 7 UUID (RFC 9562 §5.7): the Unix time in milliseconds, then 74 random bits.
    ///
    /// Identifiers made in time order land next to each other in every B-tree index keyed by them,
    /// so a burst of inserts touches a few pages at the index's right edge instead of a page per
    /// row scattered across it. Still unguessable (74 bits of the system's secure randomness);
    /// never a secret (tokens and contact codes are made separately).
    public static func timeOrdered(at date: Date = Date()) -> UUID {
        var generator = SystemRandomNumberGenerator()
        return timeOrdered(at: date, using: &generator)
    }

    public static func timeOrdered(at date: Date, using generator: inout some RandomNumberGenerator) -> UUID {
        let milliseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded(.down)))
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        func byte(_ value: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: value >> (8 * index)) }
        return UUID(
            uuid: (
                byte(milliseconds, 5), byte(milliseconds, 4), byte(milliseconds, 3), byte(milliseconds, 2),
                byte(milliseconds, 1), byte(milliseconds, 0),
                0x70 | (byte(high, 0) & 0x0F), byte(high, 1),  // version 7
                0x80 | (byte(low, 0) & 0x3F), byte(low, 1),  // RFC 9562 variant
                byte(low, 2), byte(low, 3), byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)
            ))
    }
}
