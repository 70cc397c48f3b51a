import Foundation
import Hummingbird
import LifeSignalCore
import LifeSignalModels
import LifeSignalRules

/// The person's own sealed details: what they are for, who may open them and when, and the
/// form that writes them.
struct SealedDetailsRoutes: WebPageGroup {
    let pages: WebPages
    let profiles: Profiles
    let sealedDetails: SealedDetailsAccess

    func addRoutes(to web: RouterGroup<WebContext>) {
        web.get("/profile/sealed-details") { _, context in
            try await signedIn(context) { caller in
                let own = try await sealedDetails.own(caller)
                return try await page(
                    SealedDetailsPage(
                        details: own.details,
                        updated: own.updatedAt.map { say("web.sealed.updated", ["when": WebController.formatDate($0)]) }),
                    context: context)
            }
        }
        web.post("/profile/sealed-details") { _, context in
            try await action(context, to: "/profile/sealed-details") { caller in
                _ = try await profiles.updateProfile(caller, ProfileChanges(sealedDetails: context.form["sealed"] ?? ""))
                return say("web.sealed.saved")
            }
        }
    }
}

struct SealedDetailsPage: WebPage {
    static let template = "sealed-details"
    static let section: NavSection? = .profile
    let title = say("web.sealed.title")
    let details: String
    /// "Last changed today at 09:30".
    let updated: String?
    let limit = Validation.sealedLimit
}
