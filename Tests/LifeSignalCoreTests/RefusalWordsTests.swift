import Foundation
import LifeSignalCore
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalTestSupport
import Testing

/// The core's refusals carry their catalogue words: the key, and the names and numbers in
/// them. `message` stays their English (the log's, and the API's for a caller of unknown
/// language); whoever shows one says it in the reader's language.
@Suite struct RefusalWordsTests {
    static func refusal(_ body: () async throws -> Void) async -> ServiceError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? ServiceError
        }
    }

    @Test func aRefusalWithANameCarriesItAndIsSaidInTheReadersLanguage() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+34612345670")
        let bob = try await world.signUp("Bob", phone: "+12025550140")
        try await world.link(responder: bob, dependent: ada)
        let refused = try #require(
            await Self.refusal { _ = try await world.incidents.checkInOnBehalf(bob, of: ada.user.id, id: CheckInID(UUID())) })
        #expect(refused.code == .notOverdue)
        #expect(refused.words == Said("error.notOverdue", ["name": "Ada"]))
        #expect(refused.message == "You can check in for Ada only once they have missed a check-in or have an open alert.")
        #expect(
            refused.message(in: Words(Language("de")!))
                == "Sie können sich erst für Ada melden, wenn eine Meldung verpasst wurde oder ein Alarm offen ist.")
    }

    /// A wrong code says the attempts left with the language's plural form.
    @Test func aWrongCodeCarriesTheAttemptsLeft() async throws {
        let world = try await TestWorld()
        let phone = "+34612345671"
        _ = try await world.accounts.requestSignInCode(phone: phone, clientAddress: "test")
        let right = try #require(world.code(for: phone))
        let wrong = right == "111111" ? "222222" : "111111"
        let refused = try #require(
            await Self.refusal { _ = try await world.accounts.verifySignInCode(phone: phone, code: wrong, deviceName: "t") })
        #expect(refused.words == Said("error.wrongCode", count: 4))
        #expect(refused.message == "That code isn't right. 4 attempts left.")
        #expect(refused.message(in: Words(Language("fr")!)) == "Ce code n'est pas le bon. Il vous reste 4 essais.")
        #expect(refused.message(in: Words(Language("ar")!)) == "هذا الرمز غير صحيح. بقيت لك 4 محاولات.")
    }

    /// A rule's refusal keeps its key on the way through the core.
    @Test func aRulesRefusalKeepsItsKey() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+34612345672")
        let refused = try #require(
            await Self.refusal { _ = try await world.profiles.updateProfile(ada, ProfileChanges(firstName: "A")) })
        #expect(refused.words == Said("validation.name.length"))
        #expect(refused.message(in: Words(Language("es")!)) == "Un nombre debe tener entre 2 y 50 caracteres.")
    }

    /// What the outbox itself writes as a delivery's reason is a sentence readers get in their
    /// language.
    @Test func theOutboxsReasonsAreKnownSentences() {
        for reason in [StoreOutbox.possibleDuplicateReason, StoreOutbox.foundAtProviderReason] {
            #expect(DeliveryReason.said(reason) != nil, "\(reason)")
        }
        #expect(DeliveryReason.text(StoreOutbox.possibleDuplicateReason, in: Words(Language("es")!)).hasPrefix("puede haberse enviado"))
    }

    /// The shared refusals' English is the catalogue's, as the API has always said it.
    @Test func theSharedRefusalsAreTheCataloguesEnglish() {
        for refusal in [ServiceError.unauthorized, .userNotFound, .notAResponder, .unavailable, .storageFull] {
            let words = refusal.words
            #expect(words != nil)
            #expect(words.map { Words.english($0) } == refusal.message)
        }
        #expect(ServiceError.unavailable.message == "LifeSignal can't reach its database right now. Please try again shortly.")
    }
}
