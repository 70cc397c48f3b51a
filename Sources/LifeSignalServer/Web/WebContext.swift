import Foundation
import LifeSignalLanguage
import HTTPTypes
import Hummingbird
import LifeSignalPhone
import LifeSignalCore
import LifeSignalModels
import LifeSignalRules

/// The context of a web page request: the caller found from the session cookie (if any),
/// the CSRF token of the browser, the parsed form of a POST and a flash message.
public struct WebContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var caller: Caller?
    public var clientAddress: String
    /// The browser's CSRF token (double-submit cookie); every form carries it back.
    public var csrf: String = ""
    /// Whether the request came over TLS (directly or behind a proxy saying so).
    public var secure: Bool = false
    /// The fields of a url-encoded POST, already checked against the CSRF token.
    public var form: [String: String] = [:]
    /// The files of a `multipart/form-data` POST (the avatar), by field name.
    var files: [String: [UInt8]] = [:]
    /// A one-shot message carried across a redirect.
    public var flash: String?
    /// The country phone numbers are read in: the one picked before (cookie), else the
    /// browser's language's.
    public var region: String = "US"
    /// The language the pages are in: the signed-in person's, else the browser's, else English.
    public var language: Language = .english
    /// Cookies to set on the response.
    public var setCookies: [String] = []

    public init(context: AppRequestContext) throws {
        coreContext = context.coreContext
        clientAddress = context.clientAddress
        secure = context.forwardedHTTPS
    }

    public var requestDecoder: APIRequestDecoder { APIRequestDecoder() }
    public var responseEncoder: APIResponseEncoder { APIResponseEncoder() }
}

enum WebCookie {
    static let session = "ls_session"
    static let csrf = "ls_csrf"
    static let flash = "ls_flash"
    static let region = "ls_region"
    /// A contact link opened before signing in, to return to afterwards.
    static let next = "ls_next"

    static func make(_ name: String, _ value: String, secure: Bool, maxAge: Int? = nil) -> String {
        var cookie = "\(name)=\(value); Path=/; HttpOnly; SameSite=Lax"
        if let maxAge { cookie += "; Max-Age=\(maxAge)" }
        if secure { cookie += "; Secure" }
        return cookie
    }

    static func parse(_ request: Request) -> [String: String] {
        var cookies: [String: String] = [:]
        for header in request.headers[values: .cookie] {
            for part in header.split(separator: ";") {
                let pieces = part.split(separator: "=", maxSplits: 1)
                guard pieces.count == 2 else { continue }
                cookies[pieces[0].trimmingCharacters(in: .whitespaces)] = pieces[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return cookies
    }
}

enum FormCoding {
    static func decode(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let pieces = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = unescape(String(pieces[0]))
            let value = pieces.count > 1 ? unescape(String(pieces[1])) : ""
            fields[key] = value
        }
        return fields
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
    }

    static func escape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

/// Thrown when a POST lacks the right CSRF token.
struct CSRFError: Error {}

/// Session cookie → caller, CSRF double-submit check on every POST, flash message,
/// and the security headers of every page (CSP without inline code, no framing, no sniffing).
struct WebSessionMiddleware: RouterMiddleware {
    typealias Context = WebContext
    let accounts: Accounts
    /// Sets a signed-in person's language from their browser the first time they are seen
    /// without one.
    let profiles: Profiles
    /// The service's clock (the test clock in test mode).
    let now: @Sendable () -> Date

    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "manifest-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    func handle(_ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var context = context
        var request = request
        let cookies = WebCookie.parse(request)
        // `secure` came from a trusted proxy's X-Forwarded-Proto (`ClientAddressMiddleware`) or TLS.
        context.secure = context.secure || request.uri.scheme == .https
        if let token = cookies[WebCookie.session], !token.isEmpty {
            // Only a sign-in opens the web: an API token pasted into the cookie, of any scope,
            // is no session here. Only a real `unauthorized` signs someone out; a database that
            // cannot be reached answers 503 (thrown on) and the session is kept for the retry.
            do {
                context.caller = try await accounts.authenticate(token: token).signedInCaller()
                RequestTrace.current?.userID = context.caller?.user.id
            } catch let error as ServiceError where error.kind == .unauthorized {
                context.setCookies.append(WebCookie.make(WebCookie.session, "", secure: context.secure, maxAge: 0))
            }
        }
        // The browser's language (a shipped one), for pages before sign-in and as a person's
        // language the first time they come without one (changeable in Settings).
        let acceptLanguage = request.headers[.acceptLanguage] ?? ""
        let browser =
            Language.preferred(acceptLanguage: acceptLanguage, shipped: Catalogue.bundled.languages)
            ?? Self.pseudoLocale(acceptLanguage)
        if var caller = context.caller, caller.user.language == nil, let browser, request.method == .get {
            do {
                caller.user = try await profiles.updateProfile(caller, ProfileChanges(language: browser.tag))
                context.caller = caller
            } catch {
                // Not saved this time (the database is busy): the page still reads in it, and
                // the next page tries again.
            }
        }
        context.language = context.caller?.user.language.flatMap { Language($0) } ?? browser ?? .english
        if context.caller != nil, let token = cookies[WebCookie.session] {
            // Signed in: the form token is derived from the (HttpOnly) session secret, so it is
            // bound to this session and dies with it; a token from another session never works.
            context.csrf = Accounts.tokenHash("csrf:" + token)
        } else if let csrf = cookies[WebCookie.csrf], csrf.count == 64 {
            context.csrf = csrf
        } else {
            context.csrf = WebSecurity.randomHex(32)
            context.setCookies.append(WebCookie.make(WebCookie.csrf, context.csrf, secure: context.secure))
        }
        context.region =
            cookies[WebCookie.region].flatMap(PhoneNumbers.knownRegion)
            ?? PhoneNumbers.region(acceptLanguage: request.headers[.acceptLanguage])
        if let flash = cookies[WebCookie.flash], !flash.isEmpty {
            context.flash = FormCoding.unescape(flash)
            context.setCookies.append(WebCookie.make(WebCookie.flash, "", secure: context.secure, maxAge: 0))
        }
        var response: Response
        let bound = context.caller != nil || cookies[WebCookie.csrf] != nil
        let boundary = request.headers[.contentType].flatMap(MultipartForm.boundary(contentType:))
        if request.method == .post, !bound {
            // No session and no form token: nothing this browser sends can be a form of ours,
            // so its body is not read at all.
            response = Self.formExpired(Words(context.language))
        } else if request.method == .post {
            // Forms are small; only a signed-in person's avatar upload (multipart) may be large.
            let limit = boundary != nil && context.caller != nil ? Self.uploadLimit : Self.formLimit
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: limit)
            } catch {
                throw HTTPError(.contentTooLarge, message: "That form is too large.")
            }
            var form: [String: String]
            if let boundary {
                let multipart = MultipartForm(body: Array(buffer: body), boundary: boundary)
                form = multipart?.fields ?? [:]
                context.files = multipart?.files ?? [:]
            } else {
                form = FormCoding.decode(String(buffer: body))
            }
            request.body = .init(buffer: body)
            let sent = form["_csrf"] ?? request.headers[HTTPField.Name("X-CSRF-Token")!] ?? ""
            if !WebSecurity.constantTimeEqual(sent, context.csrf) {
                response = Self.formExpired(Words(context.language))
            } else {
                context.form = form
                response = try await ReaderClock.$current.withValue(readerClock(context)) { try await next(request, context) }
            }
        } else {
            response = try await ReaderClock.$current.withValue(readerClock(context)) { try await next(request, context) }
        }
        let handlerSet = Set(response.headers[values: .setCookie].compactMap { $0.split(separator: "=").first.map(String.init) })
        for cookie in context.setCookies where !handlerSet.contains(String(cookie.split(separator: "=")[0])) {
            response.headers.append(HTTPField(name: .setCookie, value: cookie))
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        if context.secure { response.headers[HTTPField.Name("Strict-Transport-Security")!] = "max-age=31536000" }
        return response
    }
}

extension WebSessionMiddleware {
    /// The largest url-encoded form (the longest field, sealed details, is 2,000 characters).
    static let formLimit = 32 * 1024
    /// Room for the largest avatar (1 MiB) plus the form around it.
    static let uploadLimit = (1 << 20) + 64 * 1024

    /// The pseudo-locale, when a browser asks for it first (`Accept-Language: xx-PS`): tests
    /// read the signed-out pages in it. Never offered; nobody's browser sends it by chance.
    static func pseudoLocale(_ acceptLanguage: String) -> Language? {
        let first = acceptLanguage.split(separator: ",").first?.split(separator: ";").first
        return first.flatMap { Language($0.trimmingCharacters(in: .whitespaces)) } == .pseudo ? .pseudo : nil
    }

    /// A form whose token is missing or stale: a sentence in the reader's language, plain text
    /// (the form's page cannot be trusted to render it).
    static func formExpired(_ words: Words) -> Response {
        Response(
            status: .forbidden,
            headers: [.contentType: "text/plain; charset=utf-8", .contentLanguage: words.rendered.tag],
            body: .init(byteBuffer: ByteBuffer(string: words("web.formExpired"))))
    }

    /// Times on this request's pages: in the signed-in person's zone, relative to the service's now.
    func readerClock(_ context: WebContext) -> ReaderClock {
        ReaderClock(zone: HumanTime.zone(context.caller?.user.timeZone ?? "UTC"), now: now(), words: Words(context.language))
    }
}

/// Whose clock the times on a page are written in (``HumanTime``): the signed-in reader's zone
/// and the service's now, set for the whole request by ``WebSessionMiddleware``.
struct ReaderClock: Sendable {
    var zone: TimeZone
    var now: Date
    /// The reader's language: every sentence on the page comes from the catalogue in it.
    var words: Words = .english

    @TaskLocal static var current = ReaderClock(zone: TimeZone(identifier: "UTC")!, now: Date())
}

/// The reader's sentence for `key` (`web.…`) on this request's pages.
func say(_ key: String, _ arguments: [String: String] = [:], count: Int? = nil) -> String {
    ReaderClock.current.words(key, arguments, count: count)
}

enum WebSecurity {
    static func randomHex(_ bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<x.count { diff |= x[i] ^ y[i] }
        return diff == 0
    }
}
