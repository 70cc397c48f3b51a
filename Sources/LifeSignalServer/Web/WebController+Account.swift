import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalModels

extension WebController {
    func addAccountRoutes(to web: RouterGroup<WebContext>) {
        web.get("/signin") { _, context in
            if context.caller != nil { return Response.redirect("/") }
            return renderer.page("signin", ["title": "Sign in"], context: context)
        }
        web.post("/signin") { _, context in
            let phone = context.form["phone"] ?? ""
            do {
                let request = try await service.requestSignInCode(phone: phone, clientAddress: context.clientAddress)
                let resend = Int(request.resendAfter.timeIntervalSince1970)
                return Response.redirect("/signin/code?phone=\(FormCoding.escape(request.phone))&resend=\(resend)")
            } catch let error as ServiceError {
                return renderer.page(
                    "signin", ["title": "Sign in", "error": error.message, "phone": phone], context: context, status: .badRequest)
            }
        }
        web.get("/signin/code") { request, context in
            let phone = request.uri.queryParameters.get("phone") ?? ""
            let resend = request.uri.queryParameters.get("resend").flatMap { Int64($0) } ?? 0
            return renderer.page(
                "code", ["title": "Enter your code", "phone": phone, "resendAtMs": resend * 1000], context: context)
        }
        web.post("/signin/code") { _, context in
            let phone = context.form["phone"] ?? ""
            let code = context.form["code"] ?? ""
            do {
                let signIn = try await service.verifySignInCode(phone: phone, code: code, deviceName: "Web browser")
                var response = Response.redirect(signIn.user.isOnboarded ? "/" : "/onboarding")
                response.headers.append(HTTPField(
                    name: .setCookie,
                    value: WebCookie.make(WebCookie.session, signIn.token, secure: context.secure, maxAge: 90 * 86400)))
                return response
            } catch let error as ServiceError {
                return renderer.page(
                    "code", ["title": "Enter your code", "phone": phone, "error": error.message], context: context,
                    status: .badRequest)
            }
        }
        web.post("/signout") { _, context in
            if let caller = context.caller { try? await service.signOut(caller) }
            var response = Response.redirect("/signin")
            response.headers.append(HTTPField(name: .setCookie, value: WebCookie.make(WebCookie.session, "", secure: context.secure, maxAge: 0)))
            return response
        }
        web.get("/onboarding") { _, context in
            try await signedIn(context, onboarded: false) { caller in
                let user = caller.user
                return renderer.page("onboarding", [
                    "title": "Welcome", "firstName": user.firstName, "lastName": user.lastName, "note": user.emergencyNote,
                    "intervals": Self.intervalOptions(selected: user.schedule.nominalSeconds),
                    "reminders": Self.reminderOptions(selected: user.reminders),
                ], context: context)
            }
        }
        web.post("/onboarding") { _, context in
            try await action(context, to: "/", failure: "/onboarding", onboarded: false) { caller in
                let form = context.form
                _ = try await service.updateProfile(caller, ProfileChanges(
                    firstName: form["firstName"] ?? "", lastName: form["lastName"] ?? "",
                    emergencyNote: form["note"] ?? "",
                    schedule: Int(form["interval"] ?? "").map { .interval(seconds: $0) },
                    reminders: ReminderChoice(rawValue: form["reminders"] ?? "")))
                return "Welcome to LifeSignal. Check in now to start your first period."
            }
        }
    }
}
