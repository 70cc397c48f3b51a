import LifeSignalCore
import LifeSignalModels

/// People and links made through the service, as core tests arrange them.
extension TestWorld {
    /// Signs a person in with the code "sent" to them and gives their names.
    public func signUp(_ first: String, phone: String, last: String = "Tester") async throws -> Caller {
        _ = try await service.requestSignInCode(phone: phone, clientAddress: "test-\(phone)")
        let signIn = try await service.verifySignInCode(phone: phone, code: code(for: phone)!, deviceName: "test")
        var caller = try await service.authenticate(token: signIn.token)
        caller.user = try await service.updateProfile(caller, ProfileChanges(firstName: first, lastName: last))
        return caller
    }

    /// Re-reads the caller so their user record is current.
    public func refresh(_ caller: Caller) async throws -> Caller {
        var fresh = caller
        fresh.user = try await service.profile(caller)
        return fresh
    }

    /// Adds a channel and, for a text, call or e-mail channel, proves it with the code sent to it.
    @discardableResult
    public func addProvedChannel(_ caller: Caller, _ registration: ChannelRegistration) async throws -> Channel {
        let channel = try await service.addChannel(caller, registration)
        guard !channel.isVerified else { return channel }
        let sent = try await notifications(caller).first { $0.type == .channelCode }
        let code = String(sent?.title.split(separator: " ").last ?? "")
        return try await service.verifyChannel(caller, id: channel.id, code: code)
    }

    /// Makes `responder` a responder of `dependent`: the dependent asks, the responder accepts.
    public func link(responder: Caller, dependent: Caller) async throws {
        let request = try await service.addContact(dependent, code: responder.user.contactCode, roles: .responder)
        _ = try await service.acceptContactRequest(responder, id: request.id)
    }

    public func notifications(_ caller: Caller) async throws -> [LifeSignalModels.Notification] {
        try await service.notifications(caller, category: nil, unreadOnly: false, before: nil, limit: 100).items
    }
}
