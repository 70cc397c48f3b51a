import Foundation
import HTTPTypes
import Hummingbird
import Mustache

/// The page templates (`Templates/*.mustache`, loaded once) and the static files (`Public/`).
struct WebRenderer: Sendable {
    let library: MustacheLibrary
    let publicDirectory: String

    init() {
        let base = Bundle.module.resourceURL ?? Bundle.module.bundleURL
        let templates = base.appendingPathComponent("Templates")
        publicDirectory = base.appendingPathComponent("Public").path
        var library = MustacheLibrary()
        // A template that is missing, unreadable or wrong stops the server at start, never a
        // page in front of someone (a test checks every page's template is here).
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: templates.path)
        } catch {
            fatalError("The page templates are missing at \(templates.path): \(error)")
        }
        for name in names where name.hasSuffix(".mustache") {
            let path = templates.appendingPathComponent(name).path
            do {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                try library.register(text, named: String(name.dropLast(".mustache".count)))
            } catch {
                fatalError("Template \(name) cannot be read or does not parse: \(error)")
            }
        }
        do {
            try library.register(Self.layoutText, named: Self.layout)
        } catch {
            fatalError("The layout template does not parse: \(error)")
        }
        self.library = library
    }

    /// Renders a page that needs nothing but the request (sign-in pages, onboarding).
    func page<Page: WebPage>(_ page: Page, context: WebContext, status: HTTPResponse.Status = .ok) -> Response {
        render(page, chrome: PageChrome(context, for: Page.self), status: status)
    }

    func render(_ page: some WebPage, chrome: PageChrome, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html(page, chrome: chrome))))
    }

    func html<Page: WebPage>(_ page: Page, chrome: PageChrome) -> String {
        guard library.getTemplate(named: Page.template) != nil,
            let html = library.render(Layout(chrome: chrome, page: page), withTemplate: Self.layout)
        else { return "<!doctype html><title>Missing page</title>" }
        return html
    }

    /// Every page renders through this template: the chrome at the bottom of Mustache's context
    /// stack and the page above it, so a page's template reads both by name (`{{csrf}}`, `{{title}}`).
    private static let layout = "layout"
    private static let layoutText = "{{#chrome}}{{#page}}{{>*template}}{{/page}}{{/chrome}}"

    private struct Layout<Page: WebPage> {
        let chrome: PageChrome
        let page: Page
        let template = Page.template
    }

    static let contentTypes: [String: String] = [
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml",
        "webmanifest": "application/manifest+json", "png": "image/png", "json": "application/json",
        "html": "text/html; charset=utf-8",
    ]

    func file(_ name: String) -> Response? {
        guard !name.contains(".."), !name.contains("/"), let ext = name.split(separator: ".").last,
            let type = Self.contentTypes[String(ext)],
            let data = FileManager.default.contents(atPath: publicDirectory + "/" + name)
        else { return nil }
        var headers: HTTPFields = [.contentType: type, .cacheControl: "no-cache"]
        if name == "sw.js" { headers[HTTPField.Name("Service-Worker-Allowed")!] = "/" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension Response {
    static func redirect(_ path: String) -> Response {
        Response(status: .seeOther, headers: [.location: path, .cacheControl: "no-store"])
    }
}
