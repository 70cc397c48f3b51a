import Foundation
import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalLanguage
import LifeSignalModels

/// Turns every failure into the `{ "error": { "code", "message" } }` envelope. Unexpected
/// errors are logged with their detail and shown to the client only as a generic message.
public struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServiceError {
            // A page asked for during an outage says so in a page (which looks again by itself),
            // keeping the session: only a real `unauthorized` signs anyone out.
            if error.kind == .unavailable, Self.wantsPage(request) { return Self.unavailablePage(error, Self.words(of: request)) }
            return Self.response(for: error, language: Self.language(of: request))
        } catch let error as HTTPResponseError {
            if error.status == .notFound, let allowed = Self.allowedMethods(for: request) {
                return Self.methodNotAllowed(request.method, allowed: allowed)
            }
            let status = error.status
            if status.code >= 500 { context.logger.error("request failed", metadata: ["error": "\(error)"]) }
            if Self.wantsPage(request) { return Self.page(status: status, Self.words(of: request)) }
            return Self.envelope(
                status: status, code: Self.code(for: status),
                message: status == .notFound ? "There is nothing at \(request.uri.path)." : status.reasonPhrase)
        } catch {
            context.logger.error("unexpected error", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
            if Self.wantsPage(request) { return Self.page(status: .internalServerError, Self.words(of: request)) }
            return Self.envelope(
                status: .internalServerError, code: .internalError,
                message: "Something went wrong on our side. Please try again.")
        }
    }

    /// For a `/v1` path that an operation serves with other methods, those methods; nil when
    /// nothing lives at the path (a real 404).
    static func allowedMethods(for request: Request) -> [Endpoint.Method]? {
        let path = request.uri.path
        guard path.hasPrefix("/v1/") else { return nil }
        let methods = Endpoint.methods(at: path, in: Operations.all)
        return methods.isEmpty || methods.contains(where: { $0.rawValue == request.method.rawValue }) ? nil : methods
    }

    /// 405 with `Allow`, in the error envelope, instead of a 404 that would say nothing is there.
    static func methodNotAllowed(_ method: HTTPRequest.Method, allowed: [Endpoint.Method]) -> Response {
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        var response = envelope(
            status: .methodNotAllowed, code: code(for: .methodNotAllowed),
            message: "This address does not take \(method.rawValue); it takes \(list).")
        response.headers[.allow] = list
        return response
    }

    /// A browser asking for a page outside the JSON API gets a page, not the JSON envelope.
    static func wantsPage(_ request: Request) -> Bool {
        let path = request.uri.path
        guard !path.hasPrefix("/v1/"), path != "/v1", !path.hasPrefix("/callbacks/"), !path.hasPrefix("/test/") else { return false }
        return request.headers[.accept]?.contains("text/html") == true
    }

    /// The words of an error page: the browser's language (a shipped one), else English. This
    /// middleware runs outside the session's, so a signed-in person's own choice is not known here.
    static func words(of request: Request) -> Words {
        Words(language(of: request) ?? .english)
    }

    /// The error page: what happened in a sentence, and the way back.
    static func page(status: HTTPResponse.Status, _ words: Words = .english) -> Response {
        let (title, text): (String, String) =
            switch status.code {
            case 404: (words("web.errorPage.notFound.title"), words("web.errorPage.notFound.text"))
            case 400..<500: (words("web.errorPage.bad.title"), words("web.errorPage.bad.text"))
            default: (words("web.errorPage.failed.title"), words("web.errorPage.failed.text"))
            }
        return page(status: status, title: title, text: text, words: words)
    }

    static func page(
        status: HTTPResponse.Status, title: String, text: String, refreshAfter: Int? = nil, words: Words = .english
    ) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: document(title: title, text: text, refreshAfter: refreshAfter, words: words))))
    }

    static func document(title: String, text: String, refreshAfter: Int? = nil, words: Words) -> String {
        let refresh = refreshAfter.map { #"<meta http-equiv="refresh" content="\#($0)">"# } ?? ""
        let (lang, dir) = (words.rendered.tag, words.rendered.direction)
        return """
            <!doctype html>
            <html lang="\(lang)" dir="\(dir)"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="theme-color" content="#0b5d4b">\(refresh)<title>\(title) · LifeSignal</title>
            <link rel="stylesheet" href="/static/app.css"></head>
            <body><header class="top"><a class="brand" href="/">LifeSignal</a></header>
            <main id="main"><h1>\(title)</h1><p>\(text)</p><p><a class="button" href="/">\(words("web.errorPage.home"))</a></p></main></body></html>
            """
    }

    /// 503 with `Retry-After`: the error's sentence, and the page reloads itself after that wait.
    static func unavailablePage(_ error: ServiceError, _ words: Words = .english) -> Response {
        let wait = error.retryAfter ?? 5
        var response = page(
            status: .serviceUnavailable, title: unavailableTitle(words), text: unavailableText(error, words), refreshAfter: wait,
            words: words)
        response.headers[.retryAfter] = String(wait)
        return response
    }

    static func unavailableTitle(_ words: Words) -> String { words("web.errorPage.unavailable.title") }

    static func unavailableText(_ error: ServiceError, _ words: Words) -> String {
        error.message(in: words) + " " + words("web.errorPage.lookAgain")
    }

    /// The language a caller asked for (`Accept-Language`, a shipped language only), as the
    /// sign-in code takes it; nil when none was asked: the message stays the English it was.
    static func language(of request: Request) -> Language? {
        request.headers[.acceptLanguage].flatMap { Language.preferred(acceptLanguage: $0, shipped: Catalogue.bundled.languages) }
    }

    /// The envelope of a refusal: its `message` in `language` when the refusal has catalogue
    /// words and the caller asked for one (the `code` is what a program reads), else English.
    static func response(for error: ServiceError, language: Language? = nil) -> Response {
        let message = language.map { error.message(in: Words($0)) } ?? error.message
        var response = envelope(status: status(of: error.kind), code: error.code, message: message, field: error.field)
        if let retry = error.retryAfter { response.headers[.retryAfter] = String(retry) }
        if error.kind == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer" }
        return response
    }

    static func status(of kind: ServiceError.Kind) -> HTTPResponse.Status {
        switch kind {
        case .invalid: .badRequest
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .conflict: .conflict
        case .rateLimited: .tooManyRequests
        case .unavailable: .serviceUnavailable
        case .payloadTooLarge: .contentTooLarge
        }
    }

    static func code(for status: HTTPResponse.Status) -> ErrorCode {
        switch status.code {
        case 404: .notFound
        case 405: .methodNotAllowed
        case 413: .bodyTooLarge
        case 400..<500: .badRequest
        default: .internalError
        }
    }

    static func envelope(status: HTTPResponse.Status, code: ErrorCode, message: String, field: String? = nil) -> Response {
        let body = (try? APICoding.encoder.encode(APIErrorEnvelope(code: code, message: message, field: field))) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
