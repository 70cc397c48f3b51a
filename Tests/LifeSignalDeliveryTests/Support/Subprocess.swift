import Foundation
import LifeSignalTestSupport

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
