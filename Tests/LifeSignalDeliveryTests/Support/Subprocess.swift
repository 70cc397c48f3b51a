import Foundation
import LifeSignalTestSupport

/// Runs a short command to completion and returns its output (read, and the exit awaited, on a
/// thread of its own).
@discardableResult
func runCommand(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
    try await onOwnThread {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// A fresh temporary directory, removed by `body`'s caller through the returned cleanup.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-delivery-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A self-signed P-256 certificate for 127.0.0.1 and localhost, made with openssl at test time.
struct SelfSignedCertificate {
    var certificatePath: String
    var keyPath: String
    var certificatePEM: String { (try? String(contentsOfFile: certificatePath, encoding: .utf8)) ?? "" }

    static func make(in directory: URL) async throws -> SelfSignedCertificate {
        let cert = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let openssl else { throw FakeServerError("openssl is needed to make a test certificate") }
        let (status, output) = try await runCommand(
            openssl,
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
            ])
        guard status == 0 else { throw FakeServerError("openssl failed: \(output)") }
        return SelfSignedCertificate(certificatePath: cert, keyPath: key)
    }
}
