import Hummingbird
import LifeSignalCore
import NIOCore

/// The context of every request: who is calling (once the auth middleware has looked) and from where.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var caller: Caller?
    /// The client's rate-limit key: its IP address (an IPv6 client's /64 block), read through
    /// trusted proxies by `ClientAddressMiddleware`.
    public var clientAddress: String
    /// The TCP peer's address.
    public var peerAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
        clientAddress = ClientAddressResolver().clientKey(peer: peerAddress)
    }

    public var requestDecoder: APIRequestDecoder { APIRequestDecoder() }
    public var responseEncoder: APIResponseEncoder { APIResponseEncoder() }
}

/// The context of a route that requires a signed-in caller: `caller` is not optional.
public struct AuthenticatedContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let caller: Caller
    public let clientAddress: String

    public init(context: AppRequestContext) throws {
        guard let caller = context.caller else { throw ServiceError.unauthorized }
        coreContext = context.coreContext
        self.caller = caller
        clientAddress = context.clientAddress
    }

    public var requestDecoder: APIRequestDecoder { APIRequestDecoder() }
    public var responseEncoder: APIResponseEncoder { APIResponseEncoder() }
}
