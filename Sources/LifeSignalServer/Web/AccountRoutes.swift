import Foundation
import LifeSignalLanguage
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalModels

/// The web app's pages for signing in and out, onboarding.
struct AccountRoutes: WebPageGroup {
    let pages: WebPages
    let accounts: Accounts
    let profiles: Profiles

    func addRoutes(to web: RouterGroup<WebContext>) {
        web.get("/signin") { _, context in
            if context.caller != nil { return Response.redirect("/") }
            return pages.renderer.page(SignInPage(), context: context)
        }
        web.post("/signin") { _, context in
            let phone = context.form["phone"] ?? ""
            do {
                // A number nobody signs in with yet gets its code in the page's language.
                let request = try await accounts.requestSignInCode(
                    phone: try WebController.typedPhone(context), clientAddress: context.clientAddress,
                    language: context.language == .pseudo ? nil : context.language)
                let resend = Int(request.resendAfter.timeIntervalSince1970)
                var response = Response.redirect("/signin/code?phone=\(FormCoding.escape(request.phone))&resend=\(resend)")
                WebController.rememberRegion(&response, context)
                return response
            } catch let error as ServiceError {
                var picked = context
                picked.region = WebController.pickedRegion(context)
                return pages.renderer.page(
                    SignInPage(phone: phone, error: WebController.said(error)), context: picked, status: .badRequest)
            }
        }
        web.get("/signin/code") { request, context in
            let phone = request.uri.queryParameters.get("phone") ?? ""
            let resend = request.uri.queryParameters.get("resend").flatMap { Int64($0) } ?? 0
            return pages.renderer.page(CodePage(phone: phone, resendAtMs: resend * 1000), context: context)
        }
        web.post("/signin/code") { request, context in
            let phone = context.form["phone"] ?? ""
            let code = context.form["code"] ?? ""
            do {
                let signIn = try await accounts.verifySignInCode(phone: phone, code: code, deviceName: say("web.profile.webBrowser"))
                // Someone who opened a contact link before signing in goes back to it (after onboarding).
                let next = WebController.nextPath(request)
                var response = Response.redirect(!signIn.user.isOnboarded ? "/onboarding" : next ?? "/")
                if signIn.user.isOnboarded, next != nil { response.headers.append(WebController.clearNextCookie(context)) }
                response.headers.append(
                    HTTPField(
                        name: .setCookie,
                        value: WebCookie.make(WebCookie.session, signIn.token, secure: context.secure, maxAge: 90 * 86400)))
                return response
            } catch let error as ServiceError {
                return pages.renderer.page(
                    CodePage(phone: phone, error: WebController.said(error)), context: context, status: .badRequest)
            }
        }
        web.post("/signout") { _, context in
            // Signing out on this phone always works: the cookie goes whatever happens. If the
            // service cannot end the session now, it ends at its expiry, and the profile's
            // session list still offers to end it.
            if let caller = context.caller {
                do {
                    try await accounts.signOut(caller)
                } catch {
                    context.logger.warning("sign-out could not end the session", metadata: ["error": "\(error)"])
                }
            }
            var response = Response.redirect("/signin")
            response.headers.append(
                HTTPField(name: .setCookie, value: WebCookie.make(WebCookie.session, "", secure: context.secure, maxAge: 0)))
            // Nothing of this person stays on a shared phone: caches and the offline check-in queue go too.
            response.headers[HTTPField.Name("Clear-Site-Data")!] = #""cache", "storage""#
            return response
        }
        // Onboarding in three steps: names, emergency note, rhythm. Each step saves what it asks.
        web.get("/onboarding") { request, context in
            try await signedIn(context, onboarded: false) { caller in
                let user = caller.user
                let asked = request.uri.queryParameters.get("step").flatMap { Int($0) } ?? 1
                // Names come first: the later steps need an account with a name.
                let step = user.isOnboarded ? min(max(asked, 1), 3) : 1
                return pages.renderer.page(OnboardingPage(step: step, user: user), context: context)
            }
        }
        web.post("/onboarding") { request, context in
            let form = context.form
            let step = Int(form["step"] ?? "") ?? 1
            let next = WebController.nextPath(request)
            let done = next ?? "/"
            let target = step >= 3 ? done : "/onboarding?step=\(step + 1)"
            var response = try await action(context, to: target, failure: "/onboarding?step=\(step)", onboarded: false) { caller in
                // The rhythm step is a question with no answer chosen for the person.
                if step >= 3, RhythmForm.Answer(form) == nil {
                    throw ServiceError(.invalid, code: .invalidSchedule, say("web.onboarding.chooseRhythm"))
                }
                let changes: ProfileChanges =
                    switch step {
                    case 1:
                        ProfileChanges(
                            firstName: form["firstName"] ?? "", lastName: form["lastName"] ?? "",
                            timeZone: form["timeZone"].flatMap { TimeZone(identifier: $0) == nil ? nil : $0 },
                            // The browser's language, unless the person already has one.
                            language: caller.user.language == nil ? form["language"].flatMap { Language($0) }?.tag : nil)
                    case 2: ProfileChanges(emergencyNote: form["note"] ?? "")
                    default:
                        RhythmForm.Answer(form) == .watch
                            ? ProfileChanges(reminders: ReminderChoice(rawValue: form["reminders"] ?? ""), watchOnly: true)
                            : ProfileChanges(
                                schedule: WebController.schedule(from: form, current: caller.user.schedule),
                                reminders: ReminderChoice(rawValue: form["reminders"] ?? ""), watchOnly: false)
                    }
                let user = try await profiles.updateProfile(caller, changes)
                guard step >= 3 else { return nil }
                return user.watchOnly
                    ? say("web.onboarding.welcomeWatch")
                    : say("web.onboarding.welcomeCheckIn")
            }
            if next != nil, response.headers[.location] == next { response.headers.append(WebController.clearNextCookie(context)) }
            return response
        }
    }
}

extension WebController {
    /// Where to go after signing in: a contact link opened while signed out (`ls_next`).
    static func nextPath(_ request: Request) -> String? {
        guard let raw = WebCookie.parse(request)[WebCookie.next] else { return nil }
        let path = FormCoding.unescape(raw)
        guard path.hasPrefix("/contact/"), !path.contains("//"), !path.contains("\\") else { return nil }
        return path
    }

    static func clearNextCookie(_ context: WebContext) -> HTTPField {
        HTTPField(name: .setCookie, value: WebCookie.make(WebCookie.next, "", secure: context.secure, maxAge: 0))
    }
}
