import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalModels

/// The web app's pages for a person's profile, phone number, sessions, data export and account.
struct ProfileRoutes: WebPageGroup {
    let pages: WebPages
    let accounts: Accounts
    let profiles: Profiles
    let exports: DataExports

    func addRoutes(to web: RouterGroup<WebContext>) {
        web.get("/profile") { _, context in
            try await signedIn(context) { caller in
                let user = try await profiles.profile(caller)
                let sessions = try await accounts.sessions(caller).map { session in
                    let current = session.id == caller.session.id
                    let kind = say(session.kind == .apiToken ? "web.profile.kindToken" : "web.profile.kindSignIn")
                    return ProfilePage.Session(
                        id: session.id.description, name: session.name,
                        kind: current ? say("web.profile.kindCurrent", ["kind": kind]) : kind,
                        used: WebController.formatDate(session.lastUsedAt), current: current)
                }
                let hasAvatar = try await unlessRefused([.noAvatar]) { try await profiles.avatar(caller, of: user.id) } != nil
                return try await page(
                    ProfilePage(
                        id: user.id.description, firstName: user.firstName, lastName: user.lastName, note: user.emergencyNote,
                        phone: user.phone, hasAvatar: hasAvatar, sessions: sessions
                    ), context: context)
            }
        }
        web.post("/profile") { _, context in
            try await action(context, to: "/profile") { caller in
                _ = try await profiles.updateProfile(
                    caller,
                    ProfileChanges(
                        firstName: context.form["firstName"] ?? "", lastName: context.form["lastName"] ?? "",
                        emergencyNote: context.form["note"] ?? ""))
                return say("web.profile.saved")
            }
        }
        // Downloads, read with the browser's session (a GET, so no CSRF token: it changes
        // nothing but the export count). A refusal goes back to the profile with its words.
        web.get("/profile/export.json") { _, context in
            try await signedIn(context) { caller in
                do {
                    return try DataExportResponses.json(try await exports.export(caller))
                } catch let error as ServiceError {
                    return flashRedirect("/profile", WebController.said(error), context)
                }
            }
        }
        web.get("/profile/export/check-ins.csv") { _, context in
            try await signedIn(context) { caller in
                do {
                    let export = try await exports.checkIns(caller)
                    return DataExportResponses.checkIns(export.checkIns, at: export.exportedAt)
                } catch let error as ServiceError {
                    return flashRedirect("/profile", WebController.said(error), context)
                }
            }
        }
        web.post("/profile/avatar") { _, context in
            try await action(context, to: "/profile") { caller in
                guard let bytes = context.files["avatar"] else {
                    throw ServiceError.invalid(field: "avatar", say("web.profile.choosePicture"))
                }
                try await profiles.setAvatar(caller, bytes: bytes)
                return say("web.profile.pictureSaved")
            }
        }
        web.post("/profile/avatar/delete") { _, context in
            try await action(context, to: "/profile") { caller in
                try await profiles.deleteAvatar(caller)
                return say("web.profile.pictureRemoved")
            }
        }
        web.get("/avatars/{id}") { _, context in
            guard let caller = context.caller, let id = context.parameters.get("id").flatMap(UserID.init(string:)) else {
                return Response(status: .notFound)
            }
            do {
                let avatar = try await profiles.avatar(caller, of: id)
                return Response(
                    status: .ok, headers: [.contentType: avatar.contentType, .cacheControl: "private, no-cache"],
                    body: .init(byteBuffer: ByteBuffer(bytes: avatar.bytes)))
            } catch is ServiceError {
                return Response(status: .notFound)
            }
        }
        web.post("/profile/phone") { _, context in
            try await signedIn(context) { caller in
                do {
                    let request = try await accounts.requestPhoneChange(
                        caller, phone: try WebController.typedPhone(context), clientAddress: context.clientAddress)
                    let resend = Int(request.resendAfter.timeIntervalSince1970)
                    var response = Response.redirect("/profile/phone?phone=\(FormCoding.escape(request.phone))&resend=\(resend)")
                    WebController.rememberRegion(&response, context)
                    return response
                } catch let error as ServiceError {
                    return flashRedirect("/profile", WebController.said(error), context)
                }
            }
        }
        web.get("/profile/phone") { request, context in
            try await signedIn(context) { _ in
                let phone = request.uri.queryParameters.get("phone") ?? ""
                let resend = request.uri.queryParameters.get("resend").flatMap { Int64($0) } ?? 0
                return try await page(PhoneCodePage(phone: phone, resendAtMs: resend * 1000), context: context)
            }
        }
        web.post("/profile/phone/code") { _, context in
            let phone = context.form["phone"] ?? ""
            return try await action(context, to: "/profile", failure: "/profile/phone?phone=\(FormCoding.escape(phone))") { caller in
                let user = try await accounts.confirmPhoneChange(caller, phone: phone, code: context.form["code"] ?? "")
                return say("web.profile.numberNow", ["phone": user.phone])
            }
        }
        web.post("/profile/sessions/{id}/revoke") { _, context in
            try await action(context, to: "/profile") { caller in
                guard let id = context.parameters.get("id").flatMap(SessionID.init(string:)) else { return nil }
                try await accounts.revokeSession(caller, id: id)
                return id == caller.session.id ? nil : say("web.profile.signedOutThere")
            }
        }
        web.post("/profile/tokens") { _, context in
            // The token is shown once, in this page's body: never in a redirect's flash cookie.
            try await signedIn(context) { caller in
                do {
                    let scope = context.form["scope"].flatMap(Session.Scope.init(rawValue:)) ?? .checkIn
                    let token = try await accounts.createAPIToken(caller, name: context.form["name"] ?? "", scope: scope)
                    return try await page(
                        TokenPage(name: token.session.name, token: token.token, checkInOnly: scope == .checkIn), context: context)
                } catch let error as ServiceError {
                    return flashRedirect("/profile", WebController.said(error), context)
                }
            }
        }
        web.post("/profile/delete") { _, context in
            try await signedIn(context, onboarded: false) { caller in
                guard context.form["confirm"] == "DELETE" else {
                    return flashRedirect("/profile", say("web.profile.typeDelete", ["word": "DELETE"]), context)
                }
                try await accounts.deleteAccount(caller)
                var response = flashRedirect("/signin", say("web.profile.deleted"), context)
                response.headers[HTTPField.Name("Clear-Site-Data")!] = #""cache", "storage""#
                response.headers.append(
                    HTTPField(
                        name: .setCookie, value: WebCookie.make(WebCookie.session, "", secure: context.secure, maxAge: 0)))
                return response
            }
        }
    }
}
