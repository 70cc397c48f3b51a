import Foundation
import Testing

@testable import LifeSignalRules

/// Pictures are checked by structure, bounded in pixels and written back without metadata.
/// The fixtures were made with Pillow: a 2×2 JPEG whose EXIF carries a GPS position (51°30'26"N
/// 0°7'39"W) and a comment, a progressive JPEG, a PNG with text, iTXt (XMP) and eXIf chunks, and
/// images 5000 and 4097 pixels wide.
@Suite("Avatar images")
struct AvatarImageTests {
    static func fixture(_ lines: String...) -> [UInt8] { Array(Data(base64Encoded: lines.joined())!) }

    static let gpsJPEG = fixture(
        "/9j/4AAQSkZJRgABAQAAAQABAAD/4QCmRXhpZgAATU0AKgAAAAgAAgEPAAIAAAASAAAAJoglAAQAAAABAAAAOAAAAABMaWZlU2ln",
        "bmFsVGVzdENhbQAABAABAAIAAAACTgAAAAACAAUAAAADAAAAbgADAAIAAAACVwAAAAAEAAUAAAADAAAAhgAAAAAAAAAzAAAAAQAA",
        "AB4AAAABAAAAGgAAAAEAAAAAAAAAAQAAAAcAAAABAAAAJwAAAAH//gAQc2VjcmV0IGNvbW1lbnT/2wBDAAMCAgMCAgMDAwMEAwME",
        "BQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQU",
        "FBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wAARCAACAAIDASIAAhEBAxEB/8QAHwAAAQUBAQEB",
        "AQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAk",
        "M2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKj",
        "pKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAA",
        "AAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl",
        "8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmq",
        "srO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDwKiiivzI/uM//2Q==")
    static let progressiveJPEG = fixture(
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYn",
        "KSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgo",
        "KCgoKCgoKCj/wgARCAACAAMDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAUAQEAAAAAAAAAAAAAAAAAAAAG/9oA",
        "DAMBAAIQAxAAAAGeGBT/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/9oACAEBAAEFAn//xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oACAED",
        "AQE/AX//xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oACAECAQE/AX//xAAUEAEAAAAAAAAAAAAAAAAAAAAA/9oACAEBAAY/An//xAAU",
        "EAEAAAAAAAAAAAAAAAAAAAAA/9oACAEBAAE/IX//2gAMAwEAAgADAAAAEA//xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oACAEDAQE/",
        "EH//xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oACAECAQE/EH//xAAUEAEAAAAAAAAAAAAAAAAAAAAA/9oACAEBAAE/EH//2Q==")
    static let textPNG = fixture(
        "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAHnRFWHRDb21tZW50AGhvbWU6IDUxLjUwNzJOIDAuMTI3NldKI0Bi",
        "AAAAIGlUWHRYTUw6Y29tLmFkb2JlLnhtcAAAAAAAPHg+R1BTPC94PkjFtEYAAACeZVhJZk1NACoAAAAIAAIBDwACAAAAEgAAACaI",
        "JQAEAAAAAQAAADgAAAAATGlmZVNpZ25hbFRlc3RDYW0AAAQAAQACAAAAAk4AAAAAAgAFAAAAAwAAAG4AAwACAAAAAlcAAAAABAAF",
        "AAAAAwAAAIYAAAAAAAAAMwAAAAEAAAAeAAAAAQAAABoAAAABAAAAAAAAAAEAAAAHAAAAAQAAACcAAAABqWEPnQAAABZJREFUeJxj",
        "PCEnx8DAwMTAwMDAwAAADQQBCH1xymYAAAAASUVORK5CYII=")
    static let widePNG = fixture(
        "iVBORw0KGgoAAAANSUhEUgAAE4gAAAABCAAAAAAXehtUAAAAHElEQVR4nO3BMQEAAADCoPVPbQo/oAAAAACAuwETiQABvmKQDwAA",
        "AABJRU5ErkJggg==")
    static let wideJPEG = fixture(
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAx",
        "NDQ0Hyc5PTgyPC4zNDL/wAALCAABE4gBAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUF",
        "BAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVW",
        "V1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi",
        "4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEBAAA/APn+iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii",
        "iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii",
        "iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii",
        "iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii",
        "iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii",
        "iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii",
        "iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiv//Z")
    static let tallJPEG = fixture(
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAx",
        "NDQ0Hyc5PTgyPC4zNDL/2wBDAQkJCQwLDBgNDRgyIRwhMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIy",
        "MjIyMjIyMjL/wAARCAABEAEDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUF",
        "BAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVW",
        "V1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi",
        "4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAEC",
        "AxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVm",
        "Z2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq",
        "8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD5/ooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooo",
        "oAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKK",
        "KKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKAC",
        "iiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiig",
        "AooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooo",
        "oAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKK",
        "KKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKAC",
        "iiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiig",
        "AooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooo",
        "oAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKK",
        "KKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKAC",
        "iiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiig",
        "AooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooo",
        "oAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKKKKACiiigAooooAKK",
        "KKAP/9k=")

    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    @Test func aJPEGLosesItsEXIFGPSAndCommentButKeepsItsPixels() throws {
        #expect(Self.contains(Self.gpsJPEG, "Exif"))
        #expect(Self.contains(Self.gpsJPEG, "secret comment"))
        let image = try AvatarImage.sanitized(Self.gpsJPEG)
        #expect(image.contentType == "image/jpeg")
        #expect(image.width == 2 && image.height == 2)
        #expect(!Self.contains(image.bytes, "Exif"))
        #expect(!Self.contains(image.bytes, "LifeSignalTestCam"))
        #expect(!Self.contains(image.bytes, "secret comment"))
        #expect(Self.contains(image.bytes, "JFIF"))
        #expect(image.bytes.starts(with: [0xFF, 0xD8]) && image.bytes.suffix(2) == [0xFF, 0xD9])
        // Only the EXIF and comment segments went: 4 + 166 and 4 + 14 bytes.
        #expect(image.bytes.count == Self.gpsJPEG.count - (2 + 0xA6) - (2 + 0x10))
        // Sanitising is idempotent.
        #expect(try AvatarImage.sanitized(image.bytes) == image)
    }

    @Test func aProgressiveJPEGPasses() throws {
        let image = try AvatarImage.sanitized(Self.progressiveJPEG)
        #expect(image.width == 3 && image.height == 2)
    }

    @Test func aPNGLosesItsTextAndEXIFChunks() throws {
        #expect(Self.contains(Self.textPNG, "tEXt") && Self.contains(Self.textPNG, "iTXt") && Self.contains(Self.textPNG, "eXIf"))
        let image = try AvatarImage.sanitized(Self.textPNG)
        #expect(image.contentType == "image/png")
        #expect(image.width == 2 && image.height == 2)
        for gone in ["tEXt", "iTXt", "eXIf", "51.5072N", "GPS"] { #expect(!Self.contains(image.bytes, gone), "\(gone)") }
        #expect(Self.contains(image.bytes, "IDAT") && Self.contains(image.bytes, "IEND"))
        #expect(try AvatarImage.sanitized(image.bytes) == image)
    }

    @Test(arguments: [widePNG, wideJPEG, tallJPEG])
    func morePixelsThanTheLimitAreRefused(bytes: [UInt8]) {
        let error = #expect(throws: ValidationError.self) { try AvatarImage.sanitized(bytes) }
        #expect(error?.message.contains("4096") == true)
    }

    @Test func fakesAndDamagedFilesAreRefused() {
        var flipped = Self.textPNG
        flipped[40] ^= 0xFF  // breaks a chunk's CRC
        let truncatedJPEG = Array(Self.gpsJPEG.prefix(Self.gpsJPEG.count / 2))
        let truncatedPNG = Array(Self.textPNG.prefix(Self.textPNG.count - 12))
        let fakes: [[UInt8]] = [
            [0xFF, 0xD8, 0xFF, 0xD9],  // the 4-byte "JPEG" accepted before
            [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 0xFF, 0xD9],
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + Array(repeating: 1, count: 40),
            flipped, truncatedJPEG, truncatedPNG, Array("GIF89a".utf8), [], Array(repeating: 0, count: 100),
        ]
        for fake in fakes {
            #expect(throws: ValidationError.self, "\(fake.prefix(12))") { try AvatarImage.sanitized(fake) }
        }
    }
}
