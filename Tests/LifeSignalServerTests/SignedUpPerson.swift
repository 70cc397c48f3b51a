import HummingbirdTesting
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport

/// A person signed up over HTTP: her token, and the same session as a caller of the use cases.
struct Person {
    var caller: Caller
    var token: String
    var user: User { caller.user }
}

/// Signs `first` up over HTTP with `phone` and returns her as both a token and a caller.
func person(_ world: TestWorld, _ client: any TestClientProtocol, _ first: String, phone: String) async throws -> Person {
    let (token, _) = try await client.signUp(world, first: first, phone: phone)
    return Person(caller: try await world.accounts.authenticate(token: token).caller(), token: token)
}
