import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalDelivery

/// `POST /callbacks/twilio`: Twilio's delivery-status callbacks (outside `/v1`, form body).
/// Every request must carry an `X-Twilio-Signature` matching the URL Twilio was given
/// (`<public URL>/callbacks/twilio`) and the body, made with the configured auth token. Without
/// a configured token nothing is accepted: an unsigned callback could mark any delivery failed
/// or delivered.
struct TwilioCallbackController {
    let service: LifeSignalService
    /// `LIFESIGNAL_TWILIO_AUTH_TOKEN`; nil when Twilio is not configured (every callback is then refused).
    let authToken: String?
    /// The full URL the adapter sends as `StatusCallback`, which Twilio signs.
    let callbackURL: String

    static let path = "/callbacks/twilio"

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.post(RouterPath(Self.path)) { request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 64 * 1024)
            let body = String(buffer: buffer)
            guard let authToken, let signature = request.headers[HTTPField.Name(TwilioSignature.headerName)!],
                TwilioSignature.isValid(signature: signature, url: callbackURL, formBody: body, authToken: authToken)
            else {
                throw ServiceError(.forbidden, code: "bad_signature", "The Twilio signature is not valid.")
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
