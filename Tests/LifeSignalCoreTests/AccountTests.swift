import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

@Suite("Accounts and sessions")
struct AccountTests {
    @Test func signInCreatesTheAccountOnceAndIssuesTokens() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900001")
        #expect(ada.user.isOnboarded)
        _ = try await world.accounts.requestSignInCode(phone: "+44 7700 900001", clientAddress: "x")
        let again = try await world.accounts.verifySignInCode(
            phone: "+447700900001", code: world.code(for: "+447700900001")!, deviceName: "phone 2")
        #expect(again.user.id == ada.user.id)
        #expect(!again.isNewUser)
        #expect(try await world.accounts.sessions(ada).count == 2)
    }

    @Test func wrongCodesCountAndLockAfterFive() async throws {
        let world = try await TestWorld()
        _ = try await world.accounts.requestSignInCode(phone: "+447700900002", clientAddress: "x")
        let right = world.code(for: "+447700900002")!
        let wrong = right == "000000" ? "111111" : "000000"
        for attempt in 1...5 {
            let error = await #expect(throws: ServiceError.self) {
                try await world.accounts.verifySignInCode(phone: "+447700900002", code: wrong, deviceName: "t")
            }
            #expect(error?.code == .wrongCode, "attempt \(attempt)")
        }
        let locked = await #expect(throws: ServiceError.self) {
            try await world.accounts.verifySignInCode(phone: "+447700900002", code: right, deviceName: "t")
        }
        #expect(locked?.code == .tooManyAttempts)
    }

    @Test func codesExpireAfterFiveMinutesAndResendWaitsAMinute() async throws {
        let world = try await TestWorld()
        _ = try await world.accounts.requestSignInCode(phone: "+447700900003", clientAddress: "x")
        let tooSoon = await #expect(throws: ServiceError.self) {
            try await world.accounts.requestSignInCode(phone: "+447700900003", clientAddress: "x")
        }
        #expect(tooSoon?.kind == .rateLimited)
        #expect(tooSoon?.retryAfter == 60)
        world.clock.advance(by: 301)
        let expired = await #expect(throws: ServiceError.self) {
            try await world.accounts.verifySignInCode(phone: "+447700900003", code: world.code(for: "+447700900003")!, deviceName: "t")
        }
        #expect(expired?.code == .codeExpired)
    }

    @Test func codeRequestsAreRateLimitedPerPhone() async throws {
        let world = try await TestWorld()
        for _ in 0..<5 {
            _ = try await world.accounts.requestSignInCode(phone: "+447700900004", clientAddress: "x")
            world.clock.advance(by: 61)
        }
        let limited = await #expect(throws: ServiceError.self) {
            try await world.accounts.requestSignInCode(phone: "+447700900004", clientAddress: "x")
        }
        #expect(limited?.code == .tooManyCodeRequests)
    }

    @Test func revokedAndSignedOutTokensStopWorking() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900005")
        let token = try await world.accounts.createAPIToken(ada, name: "Home Assistant", scope: .full)
        let viaToken = try await world.accounts.authenticate(token: token.token).caller()
        #expect(viaToken.session.kind == .apiToken)
        try await world.accounts.revokeSession(ada, id: token.session.id)
        await #expect(throws: ServiceError.unauthorized) { try await world.accounts.authenticate(token: token.token) }
        try await world.accounts.signOut(ada)
        #expect(try await world.accounts.sessions(viaToken).isEmpty == true)
    }

    @Test func phoneChangeNeedsTheCodeSentToTheNewNumber() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900006")
        _ = try await world.accounts.requestPhoneChange(ada, phone: "+447700900099", clientAddress: "x")
        let user = try await world.accounts.confirmPhoneChange(ada, phone: "+447700900099", code: world.code(for: "+447700900099")!)
        #expect(user.phone == "+447700900099")
    }

    @Test func invalidProfileEditsChangeNothing() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900007")
        await #expect(throws: ServiceError.self) {
            try await world.profiles.updateProfile(
                ada, ProfileChanges(firstName: "Bob", schedule: .interval(seconds: 3600), reminders: .twoHours))
        }
        let after = try await world.profiles.profile(ada)
        #expect(after.firstName == "Ada")
        #expect(after.schedule == .default)
    }
}
