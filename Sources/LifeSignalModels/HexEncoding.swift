/// Lowercase hexadecimal for digests and random tokens: two digits a byte.
///
/// Written out by hand: `String(format: "%02x")` per byte costs microseconds each on Linux
/// and sat on every request's path (token hashes, timeline hashes).
extension Sequence where Element == UInt8 {
    public var lowercaseHex: String {
        var out: [UInt8] = []
        out.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            out.append(HexDigits.lower[Int(byte >> 4)])
            out.append(HexDigits.lower[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

enum HexDigits {
    static let lower: [UInt8] = Array("0123456789abcdef".utf8)
}
