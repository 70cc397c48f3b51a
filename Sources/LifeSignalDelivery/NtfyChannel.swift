import AsyncHTTPClient
import Foundation
import LifeSignalModels
import Logging
import NIOCore

/// Push through an ntfy server (ntfy.sh or self-hosted): the address is the topic name.
///
/// Posts the body to `{base}/{topic}` with `Title`, `Priority` (5 for urgent, 3 otherwise),
/// `Tags`, `Click` and `LifeSignal-Delivery` (the delivery id) headers; non-ASCII titles go RFC 2047-encoded, which ntfy decodes.
public struct NtfyChannel: ChannelAdapter {
    /// Settings read once at start.
    public struct Configuration: Sendable {
        /// `https://ntfy.sh` or a self-hosted server.
        public var baseURL: String
        /// An access token for protected topics; sent as `Authorization: Bearer …`.
        public var accessToken: String?
        public var timeout: Duration

        public init(baseURL: String = "https://ntfy.sh", accessToken: String? = nil, timeout: Duration = .seconds(10)) {
            self.baseURL = baseURL
            self.accessToken = accessToken
            self.timeout = timeout
        }
    }

    public let kind: ChannelKind = .ntfy
    private let configuration: Configuration
    private let http: HTTPDelivery

    public init(
        configuration: Configuration, httpClient: HTTPClient,
        logger: Logger = Logger(label: "lifesignal.delivery.ntfy")
    ) {
        self.configuration = configuration
        self.http = HTTPDelivery(
            client: httpClient, timeout: configuration.timeout, providerName: "The ntfy server", logger: logger)
    }

    public func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
        let topic = message.address.trimmingCharacters(in: .whitespaces)
        guard !topic.isEmpty, topic.count <= 64,
            topic.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { throw .permanent("The ntfy topic is not valid.") }

        let base = configuration.baseURL.hasSuffix("/") ? String(configuration.baseURL.dropLast()) : configuration.baseURL
        var request = HTTPClientRequest(url: "\(base)/\(topic)")
        request.method = .POST
        request.headers.add(name: "Title", value: Self.headerText(message.title))
        request.headers.add(name: "Priority", value: message.urgent ? "5" : "3")
        request.headers.add(name: "Tags", value: Self.tags(message).joined(separator: ","))
        if let link = message.link { request.headers.add(name: "Click", value: link) }
        if let token = configuration.accessToken {
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
        }
        request.headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        // The delivery id, as on webhooks: ntfy ignores it, but a copy sent twice after a crash
        // can be told apart in the server's logs and by any proxy in front of it.
        request.headers.add(name: "LifeSignal-Delivery", value: message.deliveryID.description)
        request.body = .bytes(ByteBuffer(string: message.body))

        let response = try await http.execute(request)
        if let failure = HTTPDelivery.classify(status: response.status, providerName: "The ntfy server") {
            throw failure
        }
        return .sent(providerID: response.json(Published.self)?.id)
    }

    /// Emoji short codes ntfy shows before the title, then the kind for filtering.
    static func tags(_ message: OutgoingMessage) -> [String] {
        let icon: String? =
            switch message.kind.category {
            case .alerts: message.urgent ? "rotating_light" : "warning"
            case .pings: "wave"
            case .contacts: "busts_in_silhouette"
            case .system: message.kind == .reminder ? "alarm_clock" : nil
            }
        return [icon, message.kind.rawValue].compactMap { $0 }
    }

    /// Header values must be ASCII; anything else becomes an RFC 2047 encoded word.
    static func headerText(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        if flat.allSatisfy({ $0.isASCII }) { return flat }
        return "=?UTF-8?B?\(Data(flat.utf8).base64EncodedString())?="
    }

    private struct Published: Decodable { var id: String }
}
