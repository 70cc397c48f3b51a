import LifeSignalModels

/// The error envelope every `/v1` failure uses: `{ "error": { "code", "message" } }`.
/// `message` is written for a person; `code` is stable for programs.
public struct APIErrorEnvelope: Codable, Hashable, Sendable, Error {
    public struct Body: Codable, Hashable, Sendable {
        public var code: ErrorCode
        public var message: String
        public var field: String?

        public init(code: ErrorCode, message: String, field: String? = nil) {
            self.code = code
            self.message = message
            self.field = field
        }
    }

    public var error: Body

    public init(code: ErrorCode, message: String, field: String? = nil) {
        error = Body(code: code, message: message, field: field)
    }
}
