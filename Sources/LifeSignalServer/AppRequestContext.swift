import Hummingbird
import LifeSignalCore
import NIOCore

/// The context of every request: who is calling (once the auth middleware has looked) and from where.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// What the bearer token proved, if there was one.
    public var credential: Credential?
    /// The client's rate-limit key: its IP address (an IPv6 client's /64 block), read through
    /// trusted proxies by `ClientAddressMiddleware`.
    public var clientAddress: String
    /// The TCP peer's address.
    public var peerAddress: String?
    /// A trusted proxy said the browser came over https (`X-Forwarded-Proto`); from anyone
    /// else the header is ignored.
    public var forwardedHTTPS = false

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
        clientAddress = ClientAddressResolver().clientKey(peer: peerAddress)
    }

    public var requestDecoder: APIRequestDecoder { APIRequestDecoder() }
    public var responseEncoder: APIResponseEncoder { APIResponseEncoder() }
}

/// The context of a route that requires a full caller (a sign-in or a full API token): a
/// check-in token is refused here by the core's ``Credential/caller()`` with `token_scope`.
public struct AuthenticatedContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let caller: Caller
    public let clientAddress: String

    public init(context: AppRequestContext) throws {
        guard let credential = context.credential else { throw ServiceError.unauthorized }
        caller = try credential.caller()
        coreContext = context.coreContext
        clientAddress = context.clientAddress
    }

    public var requestDecoder: APIRequestDecoder { APIRequestDecoder() }
    public var responseEncoder: APIResponseEncoder { APIResponseEncoder() }
}

/// The context of the routes any token may call, a check-in token included: checking in and
/// reading one's own status.
public struct CredentialContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let credential: Credential
    public let clientAddress: String

    public init(context: AppRequestContext) throws {
        guard let credential = context.credential else { throw ServiceError.unauthorized }
        self.credential = credential
        coreContext = context.coreContext
        clientAddress = context.clientAddress
    }

    public var requestDecoder: APIRequestDecoder { APIRequestDecoder() }
    public var responseEncoder: APIResponseEncoder { APIResponseEncoder() }
}
