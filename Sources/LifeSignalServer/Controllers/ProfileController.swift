import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels
import LifeSignalRules

/// The caller's own profile, settings, avatar, phone number and pause.
struct ProfileController {
    let service: LifeSignalService

    func addRoutes(to router: some RouterMethods<AuthenticatedContext>) {
        router.on(Operations.getProfile) { _, context in
            try await service.profile(context.caller).json()
        }
        router.on(Operations.updateProfile) { request, context in
            let changes = try await request.decode(as: ProfileChanges.self, context: context)
            return try await service.updateProfile(context.caller, changes).json()
        }
        router.on(Operations.deleteAccount) { _, context in
            try await service.deleteAccount(context.caller)
            return NoContent()
        }
        router.on(Operations.setAvatar) { request, context in
            let buffer: ByteBuffer
            do {
                buffer = try await request.body.collect(upTo: Validation.avatarLimit)
            } catch {
                throw ServiceError(.payloadTooLarge, code: "invalid_avatar", "The picture must be a PNG or JPEG of at most 1 MB.", field: "avatar")
            }
            try await service.setAvatar(context.caller, bytes: Array(buffer: buffer))
            return NoContent()
        }
        router.on(Operations.deleteAvatar) { _, context in
            try await service.deleteAvatar(context.caller)
            return NoContent()
        }
        router.on(Operations.getAvatar) { _, context in
            let avatar = try await service.avatar(context.caller, of: try context.id())
            return Response(
                status: .ok, headers: [.contentType: avatar.contentType, .cacheControl: "private, max-age=60"],
                body: .init(byteBuffer: ByteBuffer(bytes: avatar.bytes)))
        }
        router.on(Operations.requestPhoneChange) { request, context in
            let body = try await request.decode(as: PhoneBody.self, context: context)
            return try await service.requestPhoneChange(context.caller, phone: body.phone, clientAddress: context.clientAddress).json()
        }
        router.on(Operations.confirmPhoneChange) { request, context in
            let body = try await request.decode(as: VerifyCodeBody.self, context: context)
            return try await service.confirmPhoneChange(context.caller, phone: body.phone, code: body.code).json()
        }
        router.on(Operations.setPause) { request, context in
            let body = try await request.decode(as: PauseBody.self, context: context)
            return try await service.setPause(context.caller, until: body.until).json()
        }
    }
}
