import Foundation

/// My code in the three forms the apps show: text, link, and (by the server) a QR image.
public struct ContactCode: Sendable, Hashable, Codable {
    public var code: String
    public var link: String

    public init(code: String, link: String) {
        self.code = code
        self.link = link
    }
}
