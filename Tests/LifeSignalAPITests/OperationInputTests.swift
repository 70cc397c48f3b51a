import Foundation
import LifeSignalAPI
import LifeSignalModels
import Testing

/// Each input of the operation table read from a request's texts and written back: what a
/// malformed value is, what an absent one defaults to, and that what a client sends reads
/// back as the same input.
@Suite("Operation inputs")
struct OperationInputTests {
    static let id = UserID(UUID(uuidString: "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b")!)

    func read<Input: OperationInput>(_: Input.Type, _ texts: [String: String]) throws(InvalidInput) -> Input {
        try Input(from: InputTexts(texts))
    }

    func invalid<Input: OperationInput>(_ type: Input.Type, _ texts: [String: String]) -> InputParameter? {
        do {
            _ = try read(type, texts)
            return nil
        } catch {
            return error.parameter
        }
    }

    @Test func anIDInThePathIsAUUIDInAnyCase() throws {
        #expect(try read(ByID<User>.self, ["id": Self.id.description]).id == Self.id)
        #expect(try read(ByID<User>.self, ["id": Self.id.description.uppercased()]).id == Self.id)
        #expect(invalid(ByID<User>.self, ["id": "42"]) == .path("id"))
        #expect(invalid(ByID<User>.self, [:]) == .path("id"))
        #expect(ByID(Self.id).texts == ["id": Self.id.description])
    }

    @Test func aContactCodeIsAnyTextButNone() throws {
        #expect(try read(ByCode.self, ["code": "abc"]).code == "abc")
        #expect(invalid(ByCode.self, ["code": ""]) == .path("code"))
    }

    @Test func queriesTakeTheirDefaultsWhenAbsent() throws {
        #expect(try read(CheckInListQuery.self, [:]) == CheckInListQuery(before: nil, limit: 50))
        #expect(try read(ContactListQuery.self, [:]).sort == .urgency)
        #expect(
            try read(NotificationQuery.self, [:]) == NotificationQuery(category: nil, unreadOnly: false, before: nil, limit: 50))
        #expect(try read(TimelineQuery.self, [:]) == TimelineQuery(after: 0, limit: 1_000))
    }

    @Test func aMalformedQueryValueNamesItsParameter() {
        #expect(invalid(CheckInListQuery.self, ["before": "yesterday"]) == .query("before"))
        #expect(invalid(CheckInListQuery.self, ["limit": "many"]) == .query("limit"))
        #expect(invalid(ContactListQuery.self, ["sort": "height"]) == .query("sort"))
        #expect(invalid(NotificationQuery.self, ["unread": "yes"]) == .query("unread"))
        #expect(invalid(NotificationQuery.self, ["category": "gossip"]) == .query("category"))
        #expect(invalid(TimelineQuery.self, ["after": "-1"]) == .query("after"))
        #expect(invalid(TimelineQuery.self, ["limit": "0"]) == .query("limit"))
        #expect(invalid(TimelineQuery.self, ["limit": "10001"]) == .query("limit"))
        #expect(invalid(TimelineQuery.self, ["limit": "10000"]) == nil)
    }

    @Test func theTextsAnInputWritesReadBackAsTheSameInput() throws {
        let before = try #require(ISODate.parse("2026-11-21T09:30:00.000Z"))
        let inputs: [any OperationInput] = [
            ByID(Self.id), ByCode("0123456789abcdef0123456789abcdef"),
            CheckInListQuery(), CheckInListQuery(before: before, limit: 5),
            ContactListQuery(), ContactListQuery(sort: .name),
            NotificationQuery(), NotificationQuery(category: .alerts, unreadOnly: true, before: before, limit: 10),
            TimelineQuery(), TimelineQuery(after: 7, limit: 10_000),
        ]
        for input in inputs {
            #expect(try roundTrip(input), "\(input)")
        }
    }

    func roundTrip<Input: OperationInput>(_ input: Input) throws -> Bool {
        try read(Input.self, input.texts) == input
    }

    @Test func aDefaultIsNotSentAndTheURLCarriesTheRest() throws {
        #expect(Operations.listContacts.pathAndQuery(ContactListQuery()) == "/v1/contacts")
        #expect(Operations.listContacts.pathAndQuery(ContactListQuery(sort: .name)) == "/v1/contacts?sort=name")
        #expect(Operations.getTimeline.pathAndQuery(TimelineQuery(after: 3)) == "/v1/timeline?after=3")
        #expect(Operations.getContact.pathAndQuery(ByID(Self.id)) == "/v1/contacts/\(Self.id)")
        #expect(
            Operations.listNotifications.pathAndQuery(NotificationQuery(category: .alerts, unreadOnly: true))
                == "/v1/notifications?category=alerts&unread=true")
    }
}
