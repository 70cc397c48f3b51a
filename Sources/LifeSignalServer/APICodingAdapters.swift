import Foundation
import Hummingbird
import LifeSignalAPI
import LifeSignalCore

/// Decodes JSON bodies with the `/v1` conventions; a malformed body is a 400 with a
/// message saying what is wrong, never a 500.
public struct APIRequestDecoder: RequestDecoder {
    public static let maxBodySize = 64 * 1024

    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: Self.maxBodySize)
        } catch {
            throw ServiceError(.payloadTooLarge, code: .bodyTooLarge, "The request body is too large.")
        }
        guard buffer.readableBytes > 0 else {
            throw ServiceError(.invalid, code: .invalidBody, "This request needs a JSON body.")
        }
        do {
            return try APICoding.decoder.decode(T.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw ServiceError(.invalid, code: .invalidBody, Self.explain(error))
        } catch {
            throw ServiceError(.invalid, code: .invalidBody, "The request body is not valid JSON.")
        }
    }

    static func explain(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case let .keyNotFound(key, context):
            return "The field “\(path(context.codingPath + [key]))” is missing."
        case let .typeMismatch(_, context), let .valueNotFound(_, context):
            return "The field “\(path(context.codingPath))” has the wrong type."
        case let .dataCorrupted(context):
            return context.codingPath.isEmpty
                ? "The request body is not valid JSON."
                : "The field “\(path(context.codingPath))” is not valid: \(context.debugDescription)"
        @unknown default:
            return "The request body is not valid JSON."
        }
    }
}

public struct APIResponseEncoder: ResponseEncoder {
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        try JSON(value).response(from: request, context: context)
    }
}

/// A JSON response with the `/v1` conventions and a chosen status.
public struct JSON<Value: Encodable>: ResponseGenerator {
    public var value: Value
    public var status: HTTPResponse.Status

    public init(_ value: Value, status: HTTPResponse.Status = .ok) {
        self.value = value
        self.status = status
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try APICoding.encoder.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
