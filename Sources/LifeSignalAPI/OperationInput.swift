import Foundation
import LifeSignalModels

/// What an operation takes in its path and its query, typed: `getContact` takes a
/// `ByID<User>`, `listNotifications` a `NotificationQuery`. The server reads it from the
/// request before the handler runs (a malformed value is a `400` naming it), the clients
/// build the path and the query from it, and `TypedContractTests` holds ``parameters`` (and
/// the query's defaults) equal to the document's.
///
/// An operation that takes nothing there has `NoInput`, which is not an `OperationInput` on
/// purpose: its handlers and its client calls have no input to pass.
public protocol OperationInput: Sendable, Equatable {
    /// The parameters as the OpenAPI document lists them, in its order.
    static var parameters: [InputParameter] { get }
    /// Reads the input from a request's texts. A value present but malformed (or a path
    /// parameter missing) throws ``InvalidInput`` naming it; an absent query parameter takes
    /// its documented default.
    init(from texts: InputTexts) throws(InvalidInput)
    /// The texts to send, by parameter name. A query parameter at its default is left out.
    var texts: [String: String] { get }
}

/// The input of an operation that takes nothing in its path or query.
public struct NoInput: Sendable, Hashable {
    public init() {}
}

/// One path or query parameter, as the document names it.
public struct InputParameter: Hashable, Sendable, CustomStringConvertible {
    public enum Location: String, Hashable, Sendable { case path, query }

    public var name: String
    public var location: Location

    public init(name: String, location: Location) {
        self.name = name
        self.location = location
    }

    public static func path(_ name: String) -> Self { Self(name: name, location: .path) }
    public static func query(_ name: String) -> Self { Self(name: name, location: .query) }

    public var description: String { "\(name) in \(location.rawValue)" }
}

/// A path or query parameter that is not what the operation takes.
public struct InvalidInput: Error, Hashable, Sendable {
    public var parameter: InputParameter

    public init(_ parameter: InputParameter) { self.parameter = parameter }
}

/// A request's path parameters and query items as texts, for ``OperationInput/init(from:)``.
public struct InputTexts {
    let pathText: (String) -> String?
    let queryText: (String) -> String?

    public init(path: @escaping (String) -> String?, query: @escaping (String) -> String?) {
        pathText = path
        queryText = query
    }

    /// The texts of a URL's path parameters and query items, as a test or a client has them.
    public init(_ texts: [String: String]) {
        self.init(path: { texts[$0] }, query: { texts[$0] })
    }

    /// A path parameter, parsed; missing or unparsable, it is invalid.
    public func path<T>(_ name: String, _ parse: (String) -> T?) throws(InvalidInput) -> T {
        guard let text = pathText(name), let value = parse(text) else { throw InvalidInput(.path(name)) }
        return value
    }

    /// A query parameter, parsed; nil when absent, invalid when present but unparsable.
    public func query<T>(_ name: String, _ parse: (String) -> T?) throws(InvalidInput) -> T? {
        guard let text = queryText(name) else { return nil }
        guard let value = parse(text) else { throw InvalidInput(.query(name)) }
        return value
    }
}

// MARK: - The inputs of the table

/// One thing named by its id in the path (`/v1/contacts/{id}`): `ByID<User>`, `ByID<Ping>`.
public struct ByID<Tag>: OperationInput {
    public var id: Identifier<Tag>

    public init(_ id: Identifier<Tag>) { self.id = id }

    public static var parameters: [InputParameter] { [.path("id")] }

    public init(from texts: InputTexts) throws(InvalidInput) {
        id = try texts.path("id", Identifier<Tag>.init(string:))
    }

    public var texts: [String: String] { ["id": id.description] }
}

/// A contact code in the path (`/v1/contact-codes/{code}`), as typed or scanned: the server
/// checks its form (a code that is not one is refused like an unknown one).
public struct ByCode: OperationInput {
    public var code: String

    public init(_ code: String) { self.code = code }

    public static var parameters: [InputParameter] { [.path("code")] }

    public init(from texts: InputTexts) throws(InvalidInput) {
        code = try texts.path("code") { $0.isEmpty ? nil : $0 }
    }

    public var texts: [String: String] { ["code": code] }
}

/// A page of check-ins, newest first: those before a moment, at most `limit`.
public struct CheckInListQuery: OperationInput {
    public static let defaultLimit = 50

    public var before: Date?
    public var limit: Int

    public init(before: Date? = nil, limit: Int = CheckInListQuery.defaultLimit) {
        self.before = before
        self.limit = limit
    }

    public static var parameters: [InputParameter] { [.query("before"), .query("limit")] }

    public init(from texts: InputTexts) throws(InvalidInput) {
        before = try texts.query("before", ISODate.parse)
        limit = try texts.query("limit") { Int($0) } ?? Self.defaultLimit
    }

    public var texts: [String: String] {
        var texts: [String: String] = [:]
        if let before { texts["before"] = ISODate.format(before) }
        if limit != Self.defaultLimit { texts["limit"] = String(limit) }
        return texts
    }
}

/// The order of the contact lists (`urgency` unless asked otherwise).
public struct ContactListQuery: OperationInput {
    public var sort: ContactSort

    public init(sort: ContactSort = .urgency) { self.sort = sort }

    public static var parameters: [InputParameter] { [.query("sort")] }

    public init(from texts: InputTexts) throws(InvalidInput) {
        sort = try texts.query("sort", ContactSort.init(rawValue:)) ?? .urgency
    }

    public var texts: [String: String] { sort == .urgency ? [:] : ["sort": sort.rawValue] }
}

/// The notification history's query (`NotificationQuery`, the app's own filter).
extension NotificationQuery: OperationInput {
    public static var parameters: [InputParameter] { [.query("category"), .query("unread"), .query("before"), .query("limit")] }

    public init(from texts: InputTexts) throws(InvalidInput) {
        self.init(
            category: try texts.query("category", LifeSignalModels.Notification.Category.init(rawValue:)),
            unreadOnly: try texts.query("unread") { ["true": true, "false": false][$0] } ?? false,
            before: try texts.query("before", ISODate.parse),
            limit: try texts.query("limit") { Int($0) } ?? Self.defaultLimit)
    }

    public var texts: [String: String] {
        var texts: [String: String] = [:]
        if let category { texts["category"] = category.rawValue }
        if unreadOnly { texts["unread"] = "true" }
        if let before { texts["before"] = ISODate.format(before) }
        if limit != Self.defaultLimit { texts["limit"] = String(limit) }
        return texts
    }
}

/// The timeline's entries after a sequence number (0: from the first), at most `limit`
/// (1 to 10,000).
public struct TimelineQuery: OperationInput {
    public static let defaultLimit = 1_000
    public static let limits = 1...10_000

    public var after: Int
    public var limit: Int

    public init(after: Int = 0, limit: Int = TimelineQuery.defaultLimit) {
        self.after = after
        self.limit = limit
    }

    public static var parameters: [InputParameter] { [.query("after"), .query("limit")] }

    public init(from texts: InputTexts) throws(InvalidInput) {
        after = try texts.query("after") { Int($0).flatMap { $0 >= 0 ? $0 : nil } } ?? 0
        limit = try texts.query("limit") { Int($0).flatMap { Self.limits.contains($0) ? $0 : nil } } ?? Self.defaultLimit
    }

    public var texts: [String: String] {
        var texts: [String: String] = [:]
        if after != 0 { texts["after"] = String(after) }
        if limit != Self.defaultLimit { texts["limit"] = String(limit) }
        return texts
    }
}
