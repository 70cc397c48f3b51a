import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// Tokens that can do only what they were made for, sessions that end, and a phone number
/// that cannot be taken over quietly.
struct AccountSafetyTests {
    @Test func apiTokensAreCheckInOnlyByDefaultAndEndAtTheirDate() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900201")
        let watch = try await world.accounts.createAPIToken(ada, name: "Watch")
        #expect(watch.session.scope == .checkIn)
        let script = try await world.accounts.authenticate(token: watch.token)
        let more = await #expect(throws: ServiceError.self) {
            try await world.accounts.createAPIToken(try script.caller(), name: "More", scope: .full)
        }
        #expect(more?.code == .tokenScope)
        // Not even a full token makes tokens: only a sign-in on a device does.
        let full = try await world.accounts.createAPIToken(ada, name: "Full", scope: .full)
        let minted = await #expect(throws: ServiceError.self) {
            try await world.accounts.createAPIToken(try await world.accounts.authenticate(token: full.token).caller(), name: "More")
        }
        #expect(minted?.code == .signInAgain)

        let past = await #expect(throws: ServiceError.self) {
            try await world.accounts.createAPIToken(ada, name: "Old", expiresAt: TestWorld.start.addingTimeInterval(-1))
        }
        #expect(past?.field == "expiresAt")
        let week = try await world.accounts.createAPIToken(
            ada, name: "Trip", scope: .full, expiresAt: TestWorld.start.addingTimeInterval(7 * 86_400))
        #expect(
            try await world.accounts.authenticate(token: week.token).session.expiresAt == TestWorld.start.addingTimeInterval(7 * 86_400))
        world.clock.advance(by: 7 * 86_400)
        await #expect(throws: ServiceError.self) { try await world.accounts.authenticate(token: week.token) }
        #expect(try await world.accounts.sessions(ada).contains { $0.id == week.session.id } == false)
    }

    @Test func aSignInLeftUnusedForAMonthEnds() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900202")
        let token = try await world.accounts.createAPIToken(ada, name: "Script", scope: .full)
        world.clock.advance(by: 29 * 86_400)
        #expect(try await world.accounts.authenticate(token: token.token).user.id == ada.user.id)
        world.clock.advance(by: 2 * 86_400)
        // The API token has no idle limit; the browser session (never used since sign-up) does.
        #expect(try await world.accounts.authenticate(token: token.token).user.id == ada.user.id)
        let sessions = try await world.accounts.sessions(try await world.accounts.authenticate(token: token.token).caller())
        #expect(sessions.map(\.kind) == [.apiToken])
    }

    @Test func changingTheNumberNeedsARecentSignInTellsTheOldNumberAndEndsOtherSessions() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900203")
        let other = try await world.accounts.verifySignInCode(
            phone: "+447700900203",
            code: try await { () async throws -> String in
                _ = try await world.accounts.requestSignInCode(phone: "+447700900203", clientAddress: "laptop")
                return world.code(for: "+447700900203")!
            }(), deviceName: "laptop")
        world.clock.advance(by: 2 * 3_600)
        let stale = await #expect(throws: ServiceError.self) {
            try await world.accounts.requestPhoneChange(ada, phone: "+447700900299", clientAddress: "x")
        }
        #expect(stale?.code == .signInAgain)

        // A fresh sign-in on this device may.
        world.clock.advance(by: 61)
        _ = try await world.accounts.requestSignInCode(phone: "+447700900203", clientAddress: "phone")
        let fresh = try await world.accounts.authenticate(
            token: try await world.accounts.verifySignInCode(
                phone: "+447700900203", code: world.code(for: "+447700900203")!, deviceName: "phone"
            ).token
        ).caller()
        _ = try await world.accounts.requestPhoneChange(fresh, phone: "+447700900299", clientAddress: "x")
        let user = try await world.accounts.confirmPhoneChange(fresh, phone: "+447700900299", code: world.code(for: "+447700900299")!)
        #expect(user.phone == "+447700900299")
        #expect(try await world.notifications(fresh).contains { $0.title == "Your LifeSignal number was changed" })
        await #expect(throws: ServiceError.self) { try await world.accounts.authenticate(token: other.token) }
        #expect(try await world.accounts.sessions(fresh).map(\.id) == [fresh.session.id])
    }

    @Test func tryingNumbersIsLimitedBeforeTheLookup() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900204")
        _ = try await world.signUp("Bob", phone: "+447700900205")
        for n in 0..<5 {
            _ = try? await world.accounts.requestPhoneChange(ada, phone: "+44770090030\(n)", clientAddress: "x")
        }
        // Bob's number exists, but the sixth try is refused before anyone looks it up.
        let sixth = await #expect(throws: ServiceError.self) {
            try await world.accounts.requestPhoneChange(ada, phone: "+447700900205", clientAddress: "x")
        }
        #expect(sixth?.kind == .rateLimited)
    }
}
