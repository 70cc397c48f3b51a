import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct SignInFeatureTests {
    let clock = TestClock()
    let request = CodeRequest(
        phone: "+447700900123", expiresAt: Fixtures.now.addingTimeInterval(300),
        resendAfter: Fixtures.now.addingTimeInterval(3))

    init() {
        uncheckedUseMainSerialExecutor = true
    }

    func makeStore(
        _ state: SignInFeature.State = SignInFeature.State(region: .unitedKingdom),
        _ dependencies: @escaping (inout DependencyValues) -> Void = { _ in }
    ) -> TestStoreOf<SignInFeature> {
        TestStore(initialState: state) {
            SignInFeature()
        } withDependencies: { [clock] in
            $0.continuousClock = clock
            $0.date = .constant(Fixtures.now)
            dependencies(&$0)
        }
    }

    /// Taps "Send code" and the server sends one (`request`), resendable in three seconds.
    func sendCode(_ store: TestStoreOf<SignInFeature>) async {
        await store.send(.sendCodeButtonTapped) {
            $0.isSendingCode = true
        }
        await store.receive(.codeRequestResponse(.success(request))) {
            $0.isSendingCode = false
            $0.step = .code(request)
            $0.resendSecondsLeft = 3
        }
    }

    @Test func signInWithRegionNumberAndCode() async {
        let result = SignInResult(user: Fixtures.user, session: .preview, isNewUser: false)
        let requested = LockIsolated<[String]>([])
        let store = makeStore(SignInFeature.State()) { [request] in
            $0.authClient.requestCode = { phone in
                requested.withValue { $0.append(phone) }
                return request
            }
            $0.authClient.verifyCode = { phone, code in
                #expect(phone == "+447700900123")
                #expect(code == "123456")
                return result
            }
        }

        await store.send(.phone(.regionSelected(.unitedKingdom))) { $0.phone.region = .unitedKingdom }
        await store.send(.phone(.numberChanged("07700 900123"))) { $0.phone.number = "07700 900123" }
        await sendCode(store)
        #expect(requested.value == ["+447700900123"])
        await store.send(.codeChanged("12a3456789")) {
            $0.code = "123456"
        }
        await store.send(.verifyButtonTapped) {
            $0.isVerifying = true
        }
        await store.receive(.verifyResponse(.success(result))) {
            $0.isVerifying = false
        }
        await store.receive(.delegate(.signedIn(result)))
        // Signing in stopped the resend countdown.
        await clock.run()
    }

    @Test func resendCountdownThenResend() async {
        let requests = LockIsolated(0)
        let store = makeStore { [request] in
            $0.authClient.requestCode = { _ in
                requests.withValue { $0 += 1 }
                return request
            }
        }
        await store.send(.phone(.numberChanged("7700900123"))) { $0.phone.number = "7700900123" }
        await sendCode(store)
        #expect(!store.state.canResend)
        // Too early: nothing happens.
        await store.send(.resendButtonTapped)

        await clock.advance(by: .seconds(1))
        await store.receive(.resendTimerTicked) { $0.resendSecondsLeft = 2 }
        await clock.advance(by: .seconds(1))
        await store.receive(.resendTimerTicked) { $0.resendSecondsLeft = 1 }
        await clock.advance(by: .seconds(1))
        await store.receive(.resendTimerTicked) { $0.resendSecondsLeft = 0 }
        // The timer stopped itself at zero.
        await clock.advance(by: .seconds(5))
        #expect(store.state.canResend)

        await store.send(.resendButtonTapped) {
            $0.isSendingCode = true
        }
        await store.receive(.codeRequestResponse(.success(request))) {
            $0.isSendingCode = false
            $0.resendSecondsLeft = 3
        }
        #expect(requests.value == 2)
        await store.send(.changeNumberButtonTapped) {
            $0.step = .phone
            $0.resendSecondsLeft = 0
        }
        await clock.run()
    }

    @Test func invalidPhoneIsRejectedWithoutARequest() async {
        let store = makeStore()
        await store.send(.phone(.numberChanged("12"))) { $0.phone.number = "12" }
        await store.send(.sendCodeButtonTapped) {
            $0.destination = .alert(
                .failure(
                    UserFacingError(
                        message: "Enter the phone number with its country code, like +44 7700 900123.", reason: .invalid(field: "phone"))))
        }
        await store.send(.destination(.dismiss)) {
            $0.destination = nil
        }
    }

    @Test func codeRequestFailureIsShown() async {
        let store = makeStore {
            $0.authClient.requestCode = { _ in
                throw APIError.server(
                    status: 429, code: .tooManyCodeRequests, message: "Too many codes. Try again in a minute.", field: nil)
            }
        }
        await store.send(.phone(.numberChanged("+14155550123"))) { $0.phone.number = "+14155550123" }
        await store.send(.sendCodeButtonTapped) {
            $0.isSendingCode = true
        }
        await store.receive(\.codeRequestResponse.failure) {
            $0.isSendingCode = false
            $0.destination = .alert(
                .failure(UserFacingError(message: "Too many codes. Try again in a minute.", reason: .refused(.tooManyCodeRequests))))
        }
    }

    @Test func wrongCodeIsShownAndAShortCodeIsNotSent() async {
        var state = SignInFeature.State(region: .unitedKingdom)
        state.step = .code(request)
        let store = makeStore(state) {
            $0.authClient.verifyCode = { _, _ in
                throw APIError.server(status: 400, code: .wrongCode, message: "That code is not right.", field: "code")
            }
        }
        await store.send(.codeChanged("123")) {
            $0.code = "123"
        }
        await store.send(.verifyButtonTapped) {
            $0.destination = .alert(
                .failure(UserFacingError(message: "The code is the 6 digits we sent you by SMS.", reason: .invalid(field: "code"))))
        }
        await store.send(.codeChanged("654321")) {
            $0.code = "654321"
        }
        await store.send(.verifyButtonTapped) {
            $0.isVerifying = true
        }
        await store.receive(\.verifyResponse.failure) {
            $0.isVerifying = false
            $0.destination = .alert(.failure(UserFacingError(message: "That code is not right.", reason: .refused(.wrongCode))))
        }
    }

    @Test func regionsMakeE164() throws {
        #expect(try PhoneRegion.unitedKingdom.e164("07700 900123") == "+447700900123")
        #expect(try PhoneRegion.unitedStates.e164("(415) 555-0123") == "+14155550123")
        #expect(try PhoneRegion.unitedStates.e164("+44 7700 900123") == "+447700900123")
        #expect(throws: (any Error).self) { try PhoneRegion.unitedStates.e164("555") }
    }
}
