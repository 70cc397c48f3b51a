import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalDelivery

/// `POST /callbacks/twilio`: Twilio's delivery-status callbacks (outside `/v1`, form body).
/// When an auth token is configured the `X-Twilio-Signature` must match the URL Twilio was
/// given (`<public URL>/callbacks/twilio`) and the body; otherwise the request is refused.
struct TwilioCallbackController {
    let service: LifeSignalService
    /// `LIFESIGNAL_TWILIO_AUTH_TOKEN`; nil when Twilio is not configured (callbacks are then unsigned).
    let authToken: String?
    /// The full URL the adapter sends as `StatusCallback`, which Twilio signs.
    let callbackURL: String

    static let path = "/callbacks/twilio"

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.post(RouterPath(Self.path)) { request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 64 * 1024)
            let body = String(buffer: buffer)
            if let authToken {
                guard let signature = request.headers[HTTPField.Name(TwilioSignature.headerName)!],
                    TwilioSignature.isValid(signature: signature, url: callbackURL, formBody: body, authToken: authToken)
                else {
                    throw ServiceError(.forbidden, code: "bad_signature", "The Twilio signature is not valid.")
                }
            }
            // An unknown status or a callback without a SID is acknowledged and ignored, so
            // Twilio does not retry it forever.
            if let callback = TwilioStatusCallback(formBody: body) {
                try await service.recordProviderStatus(
                    providerID: callback.providerID, status: callback.status,
                    reason: callback.reason.map { reason in callback.errorCode.map { "\(reason) (error \($0))" } ?? reason })
            }
            return Response(status: .noContent)
        }
    }
}
