import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalPhone
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
        let names = (try? FileManager.default.contentsOfDirectory(atPath: templates.path)) ?? []
        for name in names where name.hasSuffix(".mustache") {
            let path = templates.appendingPathComponent(name).path
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            do {
                try library.register(text, named: String(name.dropLast(".mustache".count)))
            } catch {
                fatalError("Template \(name) does not parse: \(error)")
            }
        }
        self.library = library
    }

    func page(_ template: String, _ values: [String: Any], context: WebContext, status: HTTPResponse.Status = .ok) -> Response {
        var values = values
        values["csrf"] = context.csrf
        if let flash = context.flash { values["flash"] = flash }
        values["signedIn"] = context.caller != nil
        if Self.phonePages.contains(template) {
            values["regions"] = PhoneNumbers.regions.map { region -> [String: Any] in
                ["id": region.id, "label": "\(region.name) (+\(region.callingCode))", "selected": region.id == context.region]
            }
            values["phoneExample"] = PhoneNumbers.example(context.region) ?? ""
        }
        let html = library.render(Self.withoutEmptyText(values), withTemplate: template)
            ?? "<!doctype html><title>Missing page</title>"
        return Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// The pages with a phone number field, which get the country list (`{{> phone-region}}`).
    static let phonePages: Set<String> = ["signin", "profile", "settings"]

    /// Mustache treats an empty string as true in `{{#name}}` sections; pages mean "nothing
    /// there", so empty strings are removed before rendering (`{{name}}` still renders "").
    static func withoutEmptyText(_ values: [String: Any]) -> [String: Any] {
        values.compactMapValues(clean)
    }

    private static func clean(_ value: Any) -> Any? {
        switch value {
        case let text as String: text.isEmpty ? nil : text
        case let dictionary as [String: Any]: withoutEmptyText(dictionary)
        case let array as [[String: Any]]: array.map(withoutEmptyText)
        default: value
        }
    }

    static let contentTypes: [String: String] = [
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml",
        "webmanifest": "application/manifest+json", "png": "image/png", "json": "application/json",
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
