import AsyncHTTPClient
import Foundation
import Logging
import LifeSignalRules
import NIOCore

/// The HTTP round trip every HTTP-based adapter shares: send, read a bounded body, and turn
/// transport errors into ``DeliveryFailure`` with a sentence fit to show a person.
///
/// Requests to URLs a person supplied (webhooks, Web Push endpoints) carry an ``Egress``: the
/// host is resolved and checked by ``PrivateNetworkGuard`` before every call, and the request
/// goes through a client pinned to the checked address that never follows a redirect (kept
/// for the next call to the same name and address: ``PinnedClients``).
struct HTTPDelivery: Sendable {
    let client: HTTPClient
    let timeout: Duration
    /// How the provider is named in reasons: "The SMS provider", "The push service"…
    let providerName: String
    let logger: Logger
    /// Set for user-supplied URLs; nil for the operator's own providers (Twilio, APNs, ntfy).
    var egress: Egress? = nil

    /// How a request to a user-supplied URL is checked.
    struct Egress: Sendable {
        /// Skips the address check (never the redirect rule). Tests against fakes on 127.0.0.1 only.
        var allowPrivateNetworks: Bool
        var resolver: HostResolver
        /// Which resolved addresses may be connected to; tests narrow it to prove the pinning.
        var permits: @Sendable (IPAddress) -> Bool = { $0.isPublic }
        /// Whether calls to the same name and checked address share a client and its
        /// connections (``PinnedClients``); false: one client and connection per call.
        var reuseConnections = true
    }

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
        guard let egress else { return try await execute(request, on: client) }
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        if !egress.allowPrivateNetworks {
            guard let url = URL(string: request.url) else { throw .permanent("The address is not a valid URL.") }
            do {
                configuration.dnsOverride = try await PrivateNetworkGuard.destination(
                    for: url, resolver: egress.resolver, permits: egress.permits
                )
                .dnsOverride
            } catch {
                logger.warning("\(providerName) request refused", metadata: ["detail": "\(error.detail)"])
                throw error.failure
            }
        }
        // A client pinned to the checked address, for this name only: a shared pool could reuse
        // a connection made for another name, and its DNS override is fixed when the client is
        // made. Kept for the next call to the same name and address (see `PinnedClients`).
        // Idle connections close after 10 s; the worker's lanes, not this pool, bound the calls
        // in flight to one host.
        configuration.connectionPool = .init(idleTimeout: .seconds(10), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        let make = { [configuration] in HTTPClient(eventLoopGroup: client.eventLoopGroup, configuration: configuration) }
        let lease: PinnedClients.Lease
        if egress.reuseConnections, let url = URLComponents(string: request.url) {
            let key = PinnedClients.Key(
                group: ObjectIdentifier(client.eventLoopGroup as AnyObject), scheme: url.scheme?.lowercased() ?? "",
                host: url.host?.lowercased() ?? "", port: url.port, dnsOverride: configuration.dnsOverride)
            lease = PinnedClients.shared.lease(key, make: make)
        } else {
            lease = PinnedClients.Lease(
                key: .init(group: ObjectIdentifier(client), scheme: "", host: "", port: nil, dnsOverride: [:]), client: make(),
                pooled: false)
        }
        let result: Result<Response, DeliveryFailure>
        do {
            result = .success(try await execute(request, on: lease.client))
        } catch {
            result = .failure(error)
        }
        await PinnedClients.shared.release(lease)
        return try result.get()
    }

    private func execute(_ request: HTTPClientRequest, on client: HTTPClient) async throws(DeliveryFailure) -> Response {
        do {
            let response = try await client.execute(request, timeout: .of(timeout))
            let body = try await response.body.collect(upTo: 1 << 20)
            if response.status.code >= 300 {
                // The status and body stay in the server's log; reasons people read name a category.
                logger.info(
                    "\(providerName) answered with an error",
                    metadata: ["status": "\(response.status.code)", "body": "\(String(buffer: body).prefix(300))"])
            }
            return Response(
                status: Int(response.status.code),
                headers: response.headers.map { ($0.name, $0.value) },
                body: body)
        } catch {
            logger.warning(
                "\(providerName) request failed",
                metadata: ["host": "\(Self.redacted(request.url))", "error": "\(String(reflecting: error))"])
            throw Self.failure(for: error, providerName: providerName)
        }
    }

    /// A URL as the log may hold it: scheme and host only. Paths and queries often carry the
    /// receiver's token (a Slack or Home Assistant webhook), and user names their password.
    static func redacted(_ url: String) -> String {
        guard let parts = URLComponents(string: url), let host = parts.host else { return "(not a URL)" }
        return "\(parts.scheme ?? "?")://\(host)\(parts.port.map { ":\($0)" } ?? "")/…"
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

    /// The usual reading of a status code, as a category: the status and body are never part
    /// of the reason (another person reads it, and the answer may come from someone's internal
    /// service). 408 and 429 ask to come back later; a redirect is not followed; other 4xx will
    /// fail the same way every time.
    static func classify(status: Int, providerName: String) -> DeliveryFailure? {
        switch status {
        case 200..<300: nil
        case 408, 425, 429: .transient("\(providerName) is busy; it will be tried again.")
        case 300..<400: .permanent("\(providerName) answered with a redirect, which is not followed.")
        case 400..<500: .permanent("\(providerName) answered with an error.")
        default: .transient("\(providerName) answered with an error.")
        }
    }
}

extension TimeAmount {
    static func of(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
