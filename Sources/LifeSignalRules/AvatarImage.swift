import Foundation

/// A profile picture after its structure was checked and its metadata removed.
public struct AvatarImage: Sendable, Hashable {
    public var bytes: [UInt8]
    public var contentType: String
    public var width: Int
    public var height: Int

    /// Largest width and height accepted, in pixels.
    public static let maxSide = 4096
    public static let byteLimit = 1 << 20

    /// Reads a PNG or JPEG chunk by chunk (segment by segment), refuses anything malformed,
    /// truncated or larger than ``maxSide`` on a side, and writes it back with only what is
    /// needed to show it: EXIF (with any GPS position), XMP, IPTC, comments and PNG text chunks
    /// are dropped, as is anything after the end of the image. Pixel data is copied, not
    /// decoded. EXIF orientation goes with the rest, so a phone photo may show turned.
    public static func sanitized(_ bytes: [UInt8]) throws(ValidationError) -> AvatarImage {
        guard !bytes.isEmpty, bytes.count <= byteLimit else { throw invalid }
        if bytes.starts(with: PNG.signature) { return try PNG.sanitized(bytes) }
        if bytes.starts(with: [0xFF, 0xD8]) { return try JPEG.sanitized(bytes) }
        throw invalid
    }

    static let invalid = ValidationError(field: "avatar", message: "The picture must be a PNG or JPEG of at most 1 MB.")
    static let tooLarge = ValidationError(
        field: "avatar", message: "The picture can be at most \(maxSide) × \(maxSide) pixels.")

    static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    static func be32(_ b: [UInt8], _ i: Int) -> Int { be16(b, i) << 16 | be16(b, i + 2) }

    enum PNG {
        static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        /// Critical chunks and the ancillary ones that change how pixels look; text, time,
        /// EXIF, ICC (it carries a name) and unknown chunks are dropped.
        static let kept: Set<String> = ["IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "cHRM", "sRGB", "sBIT", "pHYs", "bKGD"]

        static func sanitized(_ b: [UInt8]) throws(ValidationError) -> AvatarImage {
            var out = signature
            var position = 8
            var width = 0, height = 0, colorType = -1
            var sawPalette = false, sawData = false, first = true
            while true {
                guard position + 12 <= b.count else { throw invalid }
                let length = be32(b, position)
                guard length <= b.count - position - 12 else { throw invalid }
                let typeBytes = Array(b[(position + 4)..<(position + 8)])
                guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else { throw invalid }
                let type = String(decoding: typeBytes, as: UTF8.self)
                let data = position + 8
                let end = data + length + 4
                guard crc32(b[(position + 4)..<(data + length)]) == UInt32(be32(b, data + length)) else { throw invalid }
                if first {
                    guard type == "IHDR", length == 13 else { throw invalid }
                    width = be32(b, data)
                    height = be32(b, data + 4)
                    let depth = Int(b[data + 8])
                    colorType = Int(b[data + 9])
                    let depths: [Int: Set<Int>] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
                    guard depths[colorType]?.contains(depth) == true, b[data + 10] == 0, b[data + 11] == 0,
                        b[data + 12] <= 1
                    else { throw invalid }
                    guard (1...maxSide).contains(width), (1...maxSide).contains(height) else { throw tooLarge }
                    first = false
                } else if type == "IHDR" {
                    throw invalid
                }
                if type == "PLTE" { sawPalette = true }
                if type == "IDAT" { sawData = true }
                if kept.contains(type) { out += b[position..<end] }
                position = end
                if type == "IEND" { break }
            }
            guard sawData, colorType != 3 || sawPalette else { throw invalid }
            return AvatarImage(bytes: out, contentType: "image/png", width: width, height: height)
        }

        static let table: [UInt32] = (0..<256).map { n -> UInt32 in
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            return c
        }

        static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
            return c ^ 0xFFFF_FFFF
        }
    }

    enum JPEG {
        /// Start-of-frame markers (baseline, progressive, lossless, arithmetic); not DHT (C4),
        /// JPG (C8) or DAC (CC).
        static let startOfFrame: Set<UInt8> = [0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF]

        static func sanitized(_ b: [UInt8]) throws(ValidationError) -> AvatarImage {
            var out: [UInt8] = [0xFF, 0xD8]
            var position = 2
            var width = 0, height = 0
            var sawFrame = false, sawScan = false
            while true {
                guard position < b.count, b[position] == 0xFF else { throw invalid }
                while position < b.count, b[position] == 0xFF { position += 1 }  // fill bytes
                guard position < b.count else { throw invalid }
                let marker = b[position]
                position += 1
                if marker == 0xD9 {
                    out += [0xFF, 0xD9]
                    break
                }
                if (0xD0...0xD7).contains(marker) || marker == 0x01 {
                    out += [0xFF, marker]
                    continue
                }
                guard marker != 0x00, marker != 0xD8, position + 2 <= b.count else { throw invalid }
                let length = be16(b, position)
                guard length >= 2, position + length <= b.count else { throw invalid }
                let segment = b[(position - 2)..<(position + length)]
                let payload = b[(position + 2)..<(position + length)]
                position += length
                switch marker {
                case 0xE0...0xEF:
                    // JFIF (density), the ICC colour profile and Adobe's colour transform affect
                    // how pixels look; EXIF, XMP, IPTC and the rest are metadata.
                    let keep =
                        (marker == 0xE0 && payload.starts(with: Array("JFIF\0".utf8)))
                        || (marker == 0xE2 && payload.starts(with: Array("ICC_PROFILE\0".utf8)))
                        || (marker == 0xEE && payload.starts(with: Array("Adobe".utf8)))
                    if keep { out += segment }
                case 0xFE:
                    continue  // comment
                case _ where startOfFrame.contains(marker):
                    guard length >= 8, !sawFrame else { throw invalid }
                    height = be16(b, payload.startIndex + 1)
                    width = be16(b, payload.startIndex + 3)
                    guard width > 0, height > 0 else { throw invalid }
                    guard width <= maxSide, height <= maxSide else { throw tooLarge }
                    sawFrame = true
                    out += segment
                case 0xDA:
                    guard sawFrame else { throw invalid }
                    sawScan = true
                    out += segment
                    // Entropy-coded data runs to the next marker that is not a stuffed 0xFF00
                    // or a restart marker.
                    var end = position
                    while true {
                        guard end + 1 < b.count else { throw invalid }
                        if b[end] == 0xFF, b[end + 1] != 0x00, !(0xD0...0xD7).contains(b[end + 1]) { break }
                        end += 1
                    }
                    out += b[position..<end]
                    position = end
                default:
                    out += segment
                }
            }
            guard sawFrame, sawScan else { throw invalid }
            return AvatarImage(bytes: out, contentType: "image/jpeg", width: width, height: height)
        }
    }
}
