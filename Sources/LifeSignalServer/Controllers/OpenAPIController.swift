import Foundation
import Hummingbird
import LifeSignalAPI

/// Serves the OpenAPI document of `/v1` as YAML and as JSON.
struct OpenAPIController {
    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get("/v1/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml)))
        }
        router.get("/v1/openapi.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: try OpenAPIDocument.json())))
        }
    }
}
