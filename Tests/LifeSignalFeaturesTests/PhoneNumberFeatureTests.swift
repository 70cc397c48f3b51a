import ComposableCoreTesting
import Foundation
import LifeSignalModels
import LifeSignalFeatures
import LifeSignalRules
import Testing

@MainActor
struct PhoneNumberFeatureTests {
    @Test func aNationalNumberBecomesInternationalInItsRegion() async throws {
        let store = TestStore(initialState: PhoneNumberFeature.State()) { PhoneNumberFeature() }
        await store.send(.numberChanged("07700 900123")) { $0.number = "07700 900123" }
        #expect(try store.state.e164() == "+17700900123")  // read as a US number
        await store.send(.numberChanged("12")) { $0.number = "12" }
        #expect(throws: ValidationError.self) { try store.state.e164() }
        await store.send(.numberChanged("07700 900123")) { $0.number = "07700 900123" }
        await store.send(.regionSelected(.unitedKingdom)) { $0.region = .unitedKingdom }
        #expect(try store.state.e164() == "+447700900123")
        await store.send(.numberChanged("+1 415 555 0123")) { $0.number = "+1 415 555 0123" }
        #expect(try store.state.e164() == "+14155550123")  // its own + wins over the region
    }

    @Test func aPhoneChangeForgetsTheCodeSentToTheOldNumber() async {
        let request = CodeRequest(phone: "+447700900123", expiresAt: .distantFuture, resendAfter: .distantPast)
        var state = PhoneChangeFeature.State(region: .unitedKingdom)
        state.request = request
        let store = TestStore(initialState: state) { PhoneChangeFeature() }
        await store.send(.phone(.regionSelected(.unitedStates))) { $0.phone.region = .unitedStates }
        await store.send(.phone(.numberChanged("415 555 0123"))) {
            $0.phone.number = "415 555 0123"
            $0.request = nil
        }
    }
}
