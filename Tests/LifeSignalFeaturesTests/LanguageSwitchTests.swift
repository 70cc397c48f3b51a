import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

/// The features take their words from the catalogue, in the `language` dependency: the same
/// action says the same thing in German, then, once the language is switched, in Spanish.
@MainActor
struct LanguageSwitchTests {
    let german = Language("de-AT")!
    let spanish = Language("es")!

    @Test func signingOutIsAskedInTheChosenLanguage() async {
        let store = TestStore(initialState: ProfileFeature.State(user: Fixtures.user)) {
            ProfileFeature()
        } withDependencies: { [german] in
            $0.language = german
        }
        await store.send(.signOutButtonTapped) {
            $0.destination = .alert(
                AlertState(title: "Abmelden?", buttons: [ButtonState("Abmelden", action: .confirmSignOut), .cancel("Abbrechen")]))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }

        // The person switches the app to Spanish: the next question is asked in Spanish.
        store.dependencies.language = spanish
        await store.send(.deleteAccountButtonTapped) {
            $0.destination = .alert(
                AlertState(
                    title: "¿Eliminar su cuenta?",
                    message:
                        "Se desconectarán sus personas de confianza y las personas que cuida, y se borrará su historial. No se puede deshacer.",
                    buttons: [.destructive("Eliminar mi cuenta", action: .confirmDeleteAccount), .cancel("Cancelar")]))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
    }

    /// A name is never translated; the sentence around it is. A failure's button follows the
    /// language too.
    @Test func removingAContactAndItsFailureInTheChosenLanguage() async {
        let bob = Fixtures.contact(1, "Bob", roles: [.responder, .dependent], state: .ok)
        let store = TestStore(initialState: ContactDetailsFeature.State(contact: bob)) {
            ContactDetailsFeature()
        } withDependencies: { [spanish] in
            $0.language = spanish
            $0.contactClient.remove = { _ in throw Fixtures.serverError }
        }
        await store.send(.removeButtonTapped) {
            $0.destination = .alert(
                AlertState(
                    title: "¿Quitar a Bob Test?",
                    buttons: [.destructive("Quitar contacto", action: .confirmRemove), .cancel("Cancelar")]))
        }
        await store.send(.destination(.presented(.alert(.confirmRemove)))) {
            $0.destination = nil
            $0.isBusy = true
        }
        await store.receive(.removeResponse(.failure(Fixtures.serverFailure))) {
            $0.isBusy = false
            $0.destination = .alert(AlertState(title: "Test error", buttons: [.cancel("Aceptar")]))
        }

        store.dependencies.language = german
        await store.send(.destination(.dismiss)) { $0.destination = nil }
        await store.send(.responderToggled(false)) {
            $0.destination = .alert(
                AlertState(
                    title: "Rollen von Bob ändern?", message: "Sie passen auf Bob auf.",
                    buttons: [ButtonState("Rollen speichern", action: .confirmRoleChange(.dependent)), .cancel("Abbrechen")]))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
    }

    @Test func aNewContactCodeIsAskedInTheChosenLanguage() async {
        let store = TestStore(initialState: HomeFeature.State(user: Fixtures.user)) {
            HomeFeature()
        } withDependencies: { [german] in
            $0.language = german
        }
        await store.send(.rotateCodeButtonTapped) {
            $0.destination = .alert(
                AlertState(
                    title: "Einen neuen Code erstellen?", message: "Der alte funktioniert dann nicht mehr.",
                    buttons: [ButtonState("Neuen Code erstellen", action: .confirmRotateCode), .cancel("Abbrechen")]))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
    }

    /// A rule's refusal found on the device is said in the app's language, from its key.
    @Test func aRefusedRhythmIsSaidInTheChosenLanguage() async {
        var user = Fixtures.user
        user.reminders = .both
        let store = TestStore(initialState: HomeFeature.State(user: user)) {
            HomeFeature()
        } withDependencies: { [spanish] in
            $0.language = spanish
        }
        await store.send(.intervalPicked(3600)) {
            $0.destination = .alert(
                AlertState(
                    title: "Un recordatorio debe llegar antes de que termine el intervalo entre confirmaciones.",
                    buttons: [.cancel("Aceptar")]))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
    }

    /// The device's own reminder is written in the language the app speaks when it is set.
    @Test func theDevicesReminderInTheChosenLanguage() async {
        uncheckedUseMainSerialExecutor = true
        let clock = TestClock()
        let reminders = LockIsolated<[LocalReminder]>([])
        let store = TestStore(initialState: CheckInFeature.State()) {
            CheckInFeature()
        } withDependencies: { [german] in
            $0.language = german
            $0.continuousClock = clock
            $0.date = .constant(Fixtures.now)
            $0.uuid = .incrementing
            $0.hapticsClient.play = { _ in }
            $0.localNotificationClient.cancel = { _ in reminders.setValue([]) }
            $0.localNotificationClient.schedule = { reminder in reminders.withValue { $0.append(reminder) } }
            $0.checkInClient.checkIn = { id, _ in .recorded(Fixtures.checkInResult(id, at: Fixtures.now)) }
        }
        await store.send(.checkInButtonTapped) { $0.isCheckingIn = true }
        await store.receive(\.checkInResponse.success) {
            $0.checkedInNow()
        }
        await clock.advance(by: .seconds(30))
        await store.receive(\.cooldownEnded) { $0.isCoolingDown = false }
        #expect(reminders.value.map(\.title) == ["Zeit, sich zu melden"])
        #expect(
            reminders.value.map(\.body) == [
                "Melden Sie sich innerhalb von 30 Minuten, damit Ihre Kontakte wissen, dass es Ihnen gut geht."
            ])
    }
}
