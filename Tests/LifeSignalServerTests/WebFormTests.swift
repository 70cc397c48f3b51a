import Foundation
import Hummingbird
import HummingbirdTesting
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import NIOCore
import Testing

@testable import LifeSignalServer

/// The web app's form handling below the browser: multipart bodies (the avatar form),
/// the CSRF check on them, escaping of what people type, and empty values in templates.
@Suite struct WebFormTests {
    static let boundary = "----LifeSignalBoundary7MA4YWxk"
    static let csrf = String(repeating: "ab", count: 32)

    static func multipart(_ fields: [(String, String)], file: (name: String, bytes: [UInt8])?) -> [UInt8] {
        var body: [UInt8] = []
        for (name, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        if let file {
            body += Array(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"me.png\"\r\nContent-Type: image/png\r\n\r\n"
                    .utf8)
            body += file.bytes + Array("\r\n".utf8)
        }
        return body + Array("--\(boundary)--\r\n".utf8)
    }

    /// A valid 1×1 PNG whose bytes include CR LF and dashes, as binary files do.
    static let png: [UInt8] = Array(
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!)

    @Test func multipartKeepsFieldsAndBinaryFiles() throws {
        #expect(MultipartForm.boundary(contentType: "multipart/form-data; boundary=\(Self.boundary)") == Self.boundary)
        #expect(MultipartForm.boundary(contentType: "multipart/form-data; boundary=\"abc\"") == "abc")
        #expect(MultipartForm.boundary(contentType: "application/x-www-form-urlencoded") == nil)
        let tricky = Self.png + Array("\r\n--not-the-boundary\r\n".utf8) + Self.png
        let form = try #require(
            MultipartForm(
                body: Self.multipart([("_csrf", Self.csrf), ("note", "a\r\nb")], file: ("avatar", tricky)), boundary: Self.boundary))
        #expect(form.fields == ["_csrf": Self.csrf, "note": "a\r\nb"])
        #expect(form.files["avatar"] == tricky)
    }

    @Test func malformedMultipartIsRejected() {
        let good = Self.multipart([("a", "1")], file: nil)
        #expect(MultipartForm(body: Array(good.dropLast(8)), boundary: Self.boundary) == nil)  // no closing boundary
        #expect(MultipartForm(body: Array("hello".utf8), boundary: Self.boundary) == nil)
        #expect(MultipartForm(body: good, boundary: "other") == nil)
    }

    /// Mustache opens `{{#name}}` for an empty string: pages hold text that may be empty as
    /// nil, so "no emergency note" shows no note, at the top of a page and inside a section.
    @Test func emptyTextDoesNotOpenSections() async throws {
        #expect("".nonEmpty == nil)
        #expect("x".nonEmpty == "x")
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, adaUser) = try await client.signUp(world, first: "Ada", phone: "+447700900557")
            let (bob, _) = try await client.signUp(world, first: "Bob", phone: "+447700900558")
            try await client.link(responder: bob, dependent: ada)
            func contactPage() async throws -> String {
                try await client.execute(
                    uri: "/contacts/\(adaUser.id)", method: .get, headers: [.cookie: "ls_session=\(bob)"]
                ) { String(buffer: $0.body) }
            }
            let withoutNote = try await contactPage()
            #expect(withoutNote.contains("<h1>Ada Tester</h1>"))
            #expect(!withoutNote.contains("Emergency note:"))
            _ = try await client.call(Operations.updateProfile, token: ada, json: ProfileChanges(emergencyNote: "Keys under the mat"))
            #expect(try await contactPage().contains("<p>Emergency note: Keys under the mat</p>"))
        }
    }

    @Test func avatarUploadNeedsTheCSRFTokenAndAValidImage() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (token, user) = try await client.signUp(world, first: "Avatar", phone: "+447700900555")
            let cookies = "ls_session=\(token); ls_csrf=\(Self.csrf)"
            // Signed in, the form token is bound to the session: the double-submit cookie alone is not enough.
            let bound = Accounts.tokenHash("csrf:" + token)
            func upload(csrf: String, bytes: [UInt8]) async throws -> (HTTPResponse.Status, String?) {
                try await client.execute(
                    uri: "/profile/avatar", method: .post,
                    headers: [
                        .cookie: cookies, .contentType: "multipart/form-data; boundary=\(Self.boundary)",
                    ],
                    body: ByteBuffer(bytes: Self.multipart([("_csrf", csrf)], file: ("avatar", bytes)))
                ) { response in
                    let flash = response.headers[values: .setCookie].first { $0.hasPrefix("ls_flash=") }
                    return (response.status, flash.map { FormCoding.unescape(String($0.split(separator: ";")[0].dropFirst(9))) })
                }
            }
            // Wrong token: refused, nothing stored.
            let (forged, _) = try await upload(csrf: String(repeating: "cd", count: 32), bytes: Self.png)
            #expect(forged == .forbidden)
            let (cookieOnly, _) = try await upload(csrf: Self.csrf, bytes: Self.png)
            #expect(cookieOnly == .forbidden)
            await #expect(throws: (any Error).self) { try await world.profiles.avatar(try await caller(world, token), of: user.id) }
            // Not an image: a clear message, nothing stored.
            let (rejected, message) = try await upload(csrf: bound, bytes: Array("plain text".utf8))
            #expect(rejected == .seeOther)
            #expect(message?.contains("PNG or JPEG") == true)
            await #expect(throws: (any Error).self) { try await world.profiles.avatar(try await caller(world, token), of: user.id) }
            // A PNG: stored byte for byte.
            let (saved, savedMessage) = try await upload(csrf: bound, bytes: Self.png)
            #expect(saved == .seeOther)
            #expect(savedMessage == "Picture saved.")
            let avatar = try await world.profiles.avatar(try await caller(world, token), of: user.id)
            #expect(avatar.bytes == Self.png)
            #expect(avatar.contentType == "image/png")
        }
    }

    @Test func whatPeopleTypeIsEscapedInPagesAndAttributes() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (token, _) = try await client.signUp(world, first: "Escape", phone: "+447700900556")
            _ = try await client.call(
                Operations.updateProfile, token: token,
                json: ProfileChanges(emergencyNote: "\"><script>alert(1)</script> & 'quotes'"))
            let html = try await client.execute(
                uri: "/profile", method: .get, headers: [.cookie: "ls_session=\(token); ls_csrf=\(Self.csrf)"]
            ) { String(buffer: $0.body) }
            #expect(!html.contains("<script>alert"))
            #expect(html.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp;"))
        }
    }

    private func caller(_ world: TestWorld, _ token: String) async throws -> Caller {
        try await world.accounts.authenticate(token: token).caller()
    }
}
