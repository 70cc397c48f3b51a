import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels

extension RouterMethods {
    /// Registers a handler for an operation of the `/v1` table.
    @discardableResult
    func on(_ operation: Operation, use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator) -> Self {
        let path = operation.path.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? ":" + part.dropFirst().dropLast() : part
        }.joined(separator: "/")
        return on(RouterPath(path), method: HTTPRequest.Method(rawValue: operation.method.rawValue)!, use: handler)
    }
}

extension RequestContext {
    /// A typed id from the path; a malformed one is a 400, not a 404 or a crash.
    func id<Tag>(_ name: String = "id", as: Identifier<Tag>.Type = Identifier<Tag>.self) throws -> Identifier<Tag> {
        guard let text = parameters.get(name), let id = Identifier<Tag>(string: text) else {
            throw ServiceError.invalid(field: name, "That id is not valid.")
        }
        return id
    }
}

extension Request {
    /// A query parameter parsed by `transform`; a present but unparsable value is a 400.
    func query<T>(_ name: String, _ transform: (String) -> T?) throws -> T? {
        guard let raw = uri.queryParameters.get(name) else { return nil }
        guard let value = transform(raw) else {
            throw ServiceError.invalid(field: name, "The query parameter “\(name)” is not valid.")
        }
        return value
    }
}
