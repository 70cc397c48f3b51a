import Foundation
import Hummingbird
import NIOCore

struct FakeServerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A port nothing listens on: bound, read, then released.
func unusedLocalPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw FakeServerError("socket() failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard bound == 0 else { throw FakeServerError("bind() failed") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Collects what a fake received, for the test to inspect afterwards.
actor Recorder<Value: Sendable> {
    private(set) var values: [Value] = []
    func append(_ value: Value) { values.append(value) }
    var count: Int { values.count }
}

/// A request as a fake saw it.
struct ReceivedRequest: Sendable {
    var method: String
    var path: String
    var headers: [(String, String)]
    var body: Data

    init(_ request: Request, body: ByteBuffer) {
        self.method = request.method.rawValue
        self.path = request.uri.path
        self.headers = request.headers.map { ($0.name.rawName, $0.value) }
        self.body = Data(buffer: body)
    }

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var bodyString: String { String(decoding: body, as: UTF8.self) }

    /// The body as `application/x-www-form-urlencoded` pairs.
    var form: [String: String] {
        var result: [String: String] = [:]
        for pair in bodyString.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            result[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return result
    }
}
