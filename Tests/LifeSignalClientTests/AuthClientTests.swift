import Foundation
import LifeSignalAPI
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels
import LifeSignalTestSupport
import Testing

@Suite("AuthClient and UserClient against a live server")
struct AuthClientTests {
    @Test func signInStoresTheTokenRestoresTheSessionAndSignOutForgetsIt() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let device = Device(server: server)
            #expect(try await device.auth.restoreSession() == nil)

            let sent = try await device.auth.requestCode(phone: "+447700900101")
            #expect(sent.phone == "+447700900101")
            #expect(sent.expiresAt > sent.resendAfter)
            let code = try #require(world.code(for: "+447700900101"))
            let signIn = try await device.auth.verifyCode(phone: "+447700900101", code: code)
            #expect(signIn.isNewUser)
            #expect(signIn.session.name == "tests")
            #expect(try device.tokens.load() != nil)

            #expect(try await device.auth.restoreSession()?.id == signIn.user.id)
            #expect(try await device.auth.sessions().map(\.id) == [signIn.session.id])
            let user = try await device.users.updateProfile(changes: ProfileChanges(firstName: "Ada", lastName: "Lovelace"))
            #expect(user.fullName == "Ada Lovelace")
            #expect(user.isOnboarded)

            let token = try await device.auth.createToken(name: "Home Assistant", scope: .full)
            #expect(token.session.kind == .apiToken)
            let script = Device(server: server, tokens: .inMemory(token.token))
            #expect(try await script.users.profile().id == signIn.user.id)
            // A check-in token checks in and reads the status, and nothing else.
            let shortcut = try await device.auth.createToken(name: "Watch", scope: .checkIn)
            #expect(shortcut.session.scope == .checkIn)
            let watch = Device(server: server, tokens: .inMemory(shortcut.token))
            guard case let .recorded(checkedIn) = try await watch.checkIns().checkIn(id: CheckInID(UUID()), clientAt: Date()) else {
                Issue.record("a check-in token's check-in should be recorded")
                return
            }
            #expect(checkedIn.checkIn.source == .apiToken)
            #expect(try await watch.checkIns().status().userID == signIn.user.id)
            let refused = try await #require(throws: APIError.self) { try await watch.users.profile() }
            #expect(refused.status == 403)
            await #expect(throws: APIError.self) { try await watch.auth.createToken(name: "More", scope: .full) }
            try await device.auth.revoke(id: token.session.id)
            await #expect(throws: APIError.self) { try await script.users.profile() }

            try await device.auth.signOut()
            #expect(try device.tokens.load() == nil)
            #expect(try await device.auth.restoreSession() == nil)
        }
    }

    @Test func aRevokedTokenIsForgottenWhenTheSessionIsRestored() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let device = Device(server: server, tokens: .inMemory("not-a-real-token"))
            let restored = try await device.auth.restoreSession()
            #expect(restored == nil)
            #expect(try device.tokens.load() == nil)
        }
    }

    @Test func pauseAndAvatar() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let (ada, user) = try await Device.signUp(world, server: server, first: "Ada", phone: "+447700900102")
            let until = world.clock.now.addingTimeInterval(86400)
            let paused = try await ada.users.setPause(until: until, openIncident: nil)
            #expect(paused.state == .paused)
            #expect(try await ada.users.setPause(until: nil, openIncident: nil).state == .ok)

            // The smallest valid PNG: a 1×1 transparent pixel.
            let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=")!
            try await ada.users.uploadAvatar(image: png)
            #expect(try await ada.users.avatar(userID: user.id) == png)
            #expect(try await ada.users.profile().hasAvatar)
            try await ada.users.deleteAvatar()
            #expect(try await ada.users.profile().hasAvatar == false)

            try await ada.users.deleteAccount()
            #expect(try ada.tokens.load() == nil)
        }
    }
}
