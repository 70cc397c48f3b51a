import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalStore
import LifeSignalTestSupport
import Logging
import Testing

/// Sign-in codes allow 5 guesses, counted in one atomic statement, on both databases: parallel
/// guesses cannot slip past the limit, and asking for another code does not reset the count.
/// PostgreSQL runs when `LIFESIGNAL_TEST_POSTGRES_URL` is set (`eval "$(scripts/postgres.sh start)"`).
@Suite("Sign-in code attempts", .timeLimit(.minutes(2)))
struct SignInAttemptTests {
    typealias Backend = TestBackend

    /// A world on `backend` (see `TestWorld.on`) whose code sender fails for numbers that
    /// start with `failingPrefix`.
    final class World: Sendable, CoreUseCases {
        let base: TestWorld
        private let drop: @Sendable () async -> Void
        var core: ServiceCore { base.core }
        var store: Store { base.store }
        var clock: ManualClock { base.clock }
        var codes: CodeBook { base.codes }

        init(_ backend: Backend, configuration: ServiceConfiguration = .init(), failingPrefix: String? = nil) async throws {
            (base, drop) = try await TestWorld.on(
                backend, configuration: configuration,
                dependencies: { injected in
                    guard let failingPrefix, let recording = injected.codeSender else { return }
                    var failing = recording
                    failing.send = { phone, code, channel, language in
                        if phone.hasPrefix(failingPrefix) {
                            throw CodeSendFailure(permanent: false, reason: "the provider is down")
                        }
                        try await recording.send(phone, code, channel, language)
                    }
                    injected.codeSender = failing
                })
        }

        func close() async { await drop() }

        /// The result of one verification: "signed_in" or the error code.
        func verify(_ phone: String, _ code: String) async -> String {
            do {
                _ = try await accounts.verifySignInCode(phone: phone, code: code, deviceName: "t")
                return "signed_in"
            } catch let error as ServiceError {
                return error.code.rawValue
            } catch {
                return "\(error)"
            }
        }

        func attempts(_ phone: String) async throws -> Int? {
            try await store.read { try await $0.sessions.pendingCode(phone: phone, purpose: "sign_in")?.attempts }
        }
    }

    /// 20 wrong codes at once: exactly 5 are checked and counted, the rest refused, and the
    /// right code is refused afterwards too.
    @Test(arguments: Backend.all)
    func parallelGuessesStopAtFive(backend: Backend) async throws {
        let world = try await World(backend)
        let phone = "+447700900201"
        do {
            _ = try await world.accounts.requestSignInCode(phone: phone, clientAddress: "x")
            let right = try #require(world.codes.code(for: phone))
            let guesses = (0..<21).map { String(format: "%06d", $0 * 47_619) }.filter { $0 != right }.prefix(20)
            #expect(guesses.count == 20)
            let outcomes = await withTaskGroup(of: String.self) { group in
                for guess in guesses { group.addTask { await world.verify(phone, guess) } }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == "wrong_code" }.count == 5, "\(outcomes)")
            #expect(outcomes.filter { $0 == "too_many_attempts" }.count == 15, "\(outcomes)")
            #expect(try await world.attempts(phone) == 5)
            #expect(await world.verify(phone, right) == "too_many_attempts")
            #expect(try await world.attempts(phone) == 5)
        } catch {
            await world.close()
            throw error
        }
        await world.close()
    }

    /// The outcome of one code request: "sent" or the error code. A database too busy to answer
    /// (200 requests at once on a loaded machine) is asked again, as an app would.
    static func ask(_ world: World, _ phone: String, from address: String) async -> String {
        for _ in 0..<20 {
            do {
                _ = try await world.accounts.requestSignInCode(phone: phone, clientAddress: address)
                return "sent"
            } catch let error as ServiceError where error.code == .unavailable {
                try? await Task.sleep(for: .milliseconds(50))
            } catch let error as ServiceError {
                return error.code.rawValue
            } catch {
                return "\(error)"
            }
        }
        return "unavailable"
    }

    static func phone(_ i: Int) -> String { "+4477009" + String(format: "%05d", 20_000 + i) }

    /// 200 code requests from one address at once, for 200 numbers: each place under the
    /// per-address limit (30 an hour) is reserved before the send, so exactly 30 codes go out.
    @Test(arguments: Backend.all)
    func parallelCodeRequestsFromOneAddressStopAtTheLimit(backend: Backend) async throws {
        let world = try await World(backend)
        let outcomes = await withTaskGroup(of: String.self) { group in
            for i in 0..<200 { group.addTask { await Self.ask(world, Self.phone(i), from: "203.0.113.9") } }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        await world.close()
        // Exactly the limit goes out; the rest are refused before anything is sent.
        let counts = Dictionary(grouping: outcomes) { $0 }.mapValues(\.count)
        #expect(counts == ["sent": 30, "too_many_code_requests": 170], "\(counts)")
        #expect((0..<200).filter { world.codes.code(for: Self.phone($0)) != nil }.count == 30)
    }

    /// The whole service's hourly budget holds whoever asks (a botnet rotating addresses), a
    /// code the provider could not take gives its places back, and premium-rate numbers and
    /// countries not served are refused before anything is sent.
    @Test(arguments: Backend.all)
    func theServiceBudgetAndTheDestinationPolicyHold(backend: Backend) async throws {
        var configuration = ServiceConfiguration()
        configuration.codesPerHour = 10
        configuration.codeDestinations = CodeDestinations(callingCodes: ["44"])
        let world = try await World(backend, configuration: configuration, failingPrefix: "+4477009201")
        // Ten failed sends (numbers +4477009201xx) cost nothing: their places are given back.
        var failed: [String] = []
        for i in 100..<110 { failed.append(await Self.ask(world, Self.phone(i), from: "198.51.100.\(i)")) }
        let outcomes = await withTaskGroup(of: String.self) { group in
            for i in 0..<40 { group.addTask { await Self.ask(world, Self.phone(i), from: "198.51.100.\(i)") } }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        world.clock.advance(by: 3600)
        let destinations = [
            await Self.ask(world, "+19005550123", from: "192.0.2.1"), await Self.ask(world, "+447700900999", from: "192.0.2.1"),
            await Self.ask(world, "+4915112345678", from: "192.0.2.1"), await Self.ask(world, "+449012345678", from: "192.0.2.1"),
        ]
        await world.close()
        #expect(failed == Array(repeating: "code_not_sent", count: 10))
        #expect(outcomes.filter { $0 == "sent" }.count == 10, "\(outcomes)")
        #expect(outcomes.filter { $0 == "too_many_code_requests" }.count == 30)
        #expect(destinations == ["phone_not_served", "sent", "phone_not_served", "phone_not_served"])
    }

    /// A new code sent while the old one is valid keeps its count; once the old one has
    /// expired, a new code starts afresh.
    @Test(arguments: Backend.all)
    func askingForAnotherCodeDoesNotResetTheCount(backend: Backend) async throws {
        let world = try await World(backend)
        let phone = "+447700900202"
        do {
            _ = try await world.accounts.requestSignInCode(phone: phone, clientAddress: "x")
            let first = try #require(world.codes.code(for: phone))
            let wrong = first == "000000" ? "111111" : "000000"
            for _ in 1...3 { #expect(await world.verify(phone, wrong) == "wrong_code") }

            world.clock.advance(by: 61)
            _ = try await world.accounts.requestSignInCode(phone: phone, clientAddress: "x")
            let second = try #require(world.codes.code(for: phone))
            #expect(try await world.attempts(phone) == 3)
            let wrongAgain = second == "000000" ? "111111" : "000000"
            #expect(await world.verify(phone, wrongAgain) == "wrong_code")
            #expect(await world.verify(phone, wrongAgain) == "wrong_code")
            #expect(await world.verify(phone, second) == "too_many_attempts")

            // Still locked after another resend within the code's lifetime…
            world.clock.advance(by: 61)
            _ = try await world.accounts.requestSignInCode(phone: phone, clientAddress: "x")
            #expect(await world.verify(phone, try #require(world.codes.code(for: phone))) == "too_many_attempts")

            // …and free once the last code has expired.
            world.clock.advance(by: 301)
            _ = try await world.accounts.requestSignInCode(phone: phone, clientAddress: "x")
            #expect(try await world.attempts(phone) == 0)
            #expect(await world.verify(phone, try #require(world.codes.code(for: phone))) == "signed_in")
        } catch {
            await world.close()
            throw error
        }
        await world.close()
    }
}
