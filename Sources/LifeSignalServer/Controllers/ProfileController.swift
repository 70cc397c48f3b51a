import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels
import LifeSignalRules

/// The caller's own profile, settings, avatar, phone number, pause and data export.
struct ProfileController {
    let profiles: Profiles
    let accounts: Accounts
    let sealedDetails: SealedDetailsAccess
    let ladders: Ladders
    let exports: DataExports

    func addRoutes(to router: some RouterMethods<AuthenticatedContext>) {
        router.on(Operations.getProfile) { _, context in
            try await profiles.profile(context.caller)
        }
        router.on(Operations.updateProfile) { changes, context in
            try await profiles.updateProfile(context.caller, changes)
        }
        router.on(Operations.getSealedDetails) { _, context in
            try await sealedDetails.own(context.caller)
        }
        router.on(Operations.getLadder) { _, context in
            try await ladders.ladder(context.caller)
        }
        router.on(Operations.setLadder) { change, context in
            try await ladders.setLadder(context.caller, change)
        }
        router.on(Operations.previewLadder) { _, context in
            try await ladders.preview(context.caller)
        }
        router.on(Operations.exportData.endpoint) { _, context in
            try DataExportResponses.json(try await exports.export(context.caller))
        }
        router.on(Operations.exportCheckIns.endpoint) { _, context in
            let export = try await exports.checkIns(context.caller)
            return DataExportResponses.checkIns(export.checkIns, at: export.exportedAt)
        }
        router.on(Operations.deleteAccount) { _, context in
            try await accounts.deleteAccount(context.caller)
        }
        router.on(Operations.setAvatar.endpoint) { request, context in
            let buffer: ByteBuffer
            do {
                buffer = try await request.body.collect(upTo: Validation.avatarLimit)
            } catch {
                throw ServiceError(
                    .payloadTooLarge, code: .invalidAvatar, "The picture must be a PNG or JPEG of at most 1 MB.", field: "avatar")
            }
            try await profiles.setAvatar(context.caller, bytes: Array(buffer: buffer))
            return Response(status: .noContent)
        }
        router.on(Operations.deleteAvatar) { _, context in
            try await profiles.deleteAvatar(context.caller)
        }
        router.on(Operations.getAvatar.endpoint) { request, context in
            let avatar = try await profiles.avatar(context.caller, of: try Operations.getAvatar.input(of: request, context).id)
            return Response(
                status: .ok, headers: [.contentType: avatar.contentType, .cacheControl: "private, max-age=60"],
                body: .init(byteBuffer: ByteBuffer(bytes: avatar.bytes)))
        }
        router.on(Operations.requestPhoneChange) { body, context in
            try await accounts.requestPhoneChange(
                context.caller, phone: APIPhone.normalized(body.phone), clientAddress: context.clientAddress)
        }
        router.on(Operations.confirmPhoneChange) { body, context in
            try await accounts.confirmPhoneChange(
                context.caller, phone: APIPhone.normalized(body.phone), code: body.code)
        }
        router.on(Operations.setPause) { body, context in
            try await profiles.setPause(context.caller, until: body.until, openIncident: body.openIncident)
        }
    }
}
