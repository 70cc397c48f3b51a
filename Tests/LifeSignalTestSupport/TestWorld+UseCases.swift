import LifeSignalCore
import LifeSignalModels

/// People and links made through the use cases, as core tests arrange them.
extension TestWorld {
    /// Signs a person in with the code "sent" to them and gives their names.
    public func signUp(_ first: String, phone: String, last: String = "Tester") async throws -> Caller {
        _ = try await accounts.requestSignInCode(phone: phone, clientAddress: "test-\(phone)")
        let signIn = try await accounts.verifySignInCode(phone: phone, code: code(for: phone)!, deviceName: "test")
        var caller = try await accounts.authenticate(token: signIn.token).caller()
        caller.user = try await profiles.updateProfile(caller, ProfileChanges(firstName: first, lastName: last))
        return caller
    }

    /// Re-reads the caller so their user record is current.
    public func refresh(_ caller: Caller) async throws -> Caller {
        var fresh = caller
        fresh.user = try await profiles.profile(caller)
        return fresh
    }

    /// Adds a channel and, for a text, call or e-mail channel, proves it with the code sent to it.
    @discardableResult
    public func addProvedChannel(_ caller: Caller, _ registration: ChannelRegistration) async throws -> Channel {
        let channel = try await channels.addChannel(caller, registration)
        guard !channel.isVerified else { return channel }
        return try await channels.verifyChannel(caller, id: channel.id, code: channelCode(for: channel.address) ?? "")
    }

    /// Makes `responder` a responder of `dependent`: the dependent asks, the responder accepts.
    public func link(responder: Caller, dependent: Caller) async throws {
        let request = try await contacts.addContact(dependent, code: responder.user.contactCode, roles: .responder)
        _ = try await contacts.acceptContactRequest(responder, id: request.id, roles: request.roles)
    }

    public func notifications(_ caller: Caller) async throws -> [LifeSignalModels.Notification] {
        try await notifications.notifications(caller, category: nil, unreadOnly: false, before: nil, limit: 100).items
    }
}
