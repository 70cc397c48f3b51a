import Foundation
import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels

/// Check-ins, status and check-in history.
struct CheckInController {
    let checkIns: CheckIns

    /// The source is the server's to say: an API token checks in as one; a signed-in device may
    /// only name which of the person's own apps it is. Nobody can claim to be a responder, a
    /// ping answer or an SMS reply.
    static func source(_ claimed: CheckIn.Source?, session: Session) -> CheckIn.Source {
        if session.kind == .apiToken { return .apiToken }
        guard let claimed, [.app, .web, .cli].contains(claimed) else { return .app }
        return claimed
    }

    /// What any token may call, a check-in token included.
    func addCheckInRoutes(to router: some RouterMethods<CredentialContext>) {
        router.on(Operations.getStatus) { _, context in
            try await checkIns.status(context.credential)
        }
        router.on(Operations.checkIn, status: { $0.duplicate ? .ok : .created }) { body, context in
            try await checkIns.checkIn(
                context.credential, id: body.id, clientAt: body.clientAt,
                source: Self.source(body.source, session: context.credential.session), callMe: body.callMe == true)
        }
    }

    func addRoutes(to router: some RouterMethods<AuthenticatedContext>) {
        router.on(Operations.addTime) { body, context in
            try await checkIns.addTime(context.caller, minutes: body.minutes)
        }
        router.on(Operations.listCheckIns) { page, context in
            try await checkIns.checkIns(context.caller, before: page.before, limit: page.limit)
        }
    }
}
