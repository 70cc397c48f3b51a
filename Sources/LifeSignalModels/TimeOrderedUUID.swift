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
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index))) }
        for index in 6..<8 { bytes[index] = UInt8(truncatingIfNeeded: high >> (8 * (index - 6))) }
        for index in 8..<16 { bytes[index] = UInt8(truncatingIfNeeded: low >> (8 * (index - 8))) }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)  // version 7
        bytes[8] = 0x80 | (bytes[8] & 0x3F)  // RFC 9562 variant
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
