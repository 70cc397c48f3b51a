import AsyncHTTPClient
import Foundation
import Logging
import NIOCore

/// The HTTP round trip every HTTP-based adapter shares: send, read a bounded body, and turn
/// transport errors into ``DeliveryFailure`` with a sentence fit to show a person.
struct HTTPDelivery: Sendable {
    let client: HTTPClient
    let timeout: Duration
    /// How the provider is named in reasons: "The SMS provider", "The push service"…
    let providerName: String
    let logger: Logger

    /// A response whose body has been read (up to 1 MiB: providers answer in a few hundred bytes).
    struct Response: Sendable {
        var status: Int
        var headers: [(String, String)]
        var body: ByteBuffer

        var bodyString: String { String(buffer: body) }

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }

        func json<T: Decodable>(_ type: T.Type) -> T? {
            try? JSONDecoder().decode(T.self, from: Data(body.readableBytesView))
        }
    }

    func execute(_ request: HTTPClientRequest) async throws(DeliveryFailure) -> Response {
        do {
            let response = try await client.execute(request, timeout: .of(timeout))
            let body = try await response.body.collect(upTo: 1 << 20)
            return Response(
                status: Int(response.status.code),
                headers: response.headers.map { ($0.name, $0.value) },
                body: body)
        } catch {
            logger.warning(
                "\(providerName) request failed",
                metadata: ["url": "\(request.url)", "error": "\(String(reflecting: error))"])
            throw Self.failure(for: error, providerName: providerName)
        }
    }

    /// Every transport error is worth a retry except a URL that can never work.
    static func failure(for error: any Error, providerName: String) -> DeliveryFailure {
        if let error = error as? HTTPClientError {
            if [.invalidURL, .emptyHost, .emptyScheme].contains(error) {
                return .permanent("The address is not a valid URL.")
            }
            if [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout, .tlsHandshakeTimeout].contains(error) {
                return .transient("\(providerName) did not answer in time.")
            }
        }
        return .transient("\(providerName) could not be reached.")
    }

    /// The usual reading of a status code. 408 and 429 ask to come back later; other 4xx will
    /// fail the same way every time.
    static func classify(status: Int, providerName: String) -> DeliveryFailure? {
        switch status {
        case 200..<300: nil
        case 408, 425, 429: .transient("\(providerName) is busy; it will be tried again.")
        case 400..<500: .permanent("\(providerName) refused the message (HTTP \(status)).")
        default: .transient("\(providerName) is unavailable (HTTP \(status)).")
        }
    }
}

extension TimeAmount {
    static func of(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
