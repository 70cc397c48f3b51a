import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalRules

/// Keys are stored with every notification and compared with keys made by later releases:
/// each spelling below is what the service has always written, byte for byte.
@Suite("Step keys")
struct StepKeyTests {
    static let user = UserID(UUID(uuidString: "0195B3C4-1111-7000-8000-000000000001")!)
    static let other = UserID(UUID(uuidString: "0195B3C4-2222-7000-8000-000000000002")!)
    static let incident = IncidentID(UUID(uuidString: "0195B3C4-3333-7000-8000-000000000003")!)
    static let notification = NotificationID(UUID(uuidString: "0195B3C4-4444-7000-8000-000000000004")!)
    static let ping = PingID(UUID(uuidString: "0195B3C4-5555-7000-8000-000000000005")!)
    static let drill = DrillID(UUID(uuidString: "0195B3C4-6666-7000-8000-000000000006")!)
    static let checkIn = CheckInID(UUID(uuidString: "0195B3C4-7777-7000-8000-000000000007")!)
    /// 2026-03-01T12:00:00.1239Z: the fraction of a millisecond is dropped.
    static let at = Date(timeIntervalSince1970: 1_772_366_400.1239)

    static let u = "0195b3c4-1111-7000-8000-000000000001"
    static let o = "0195b3c4-2222-7000-8000-000000000002"
    static let i = "0195b3c4-3333-7000-8000-000000000003"

    @Test(
        "every key is spelled as it always was",
        arguments: [
            (StepKey.reminder(user: user, deadline: at, leadSeconds: 3600), "user:\(u):deadline:1772366400123:reminder:3600"),
            (.lastCall(user: user, deadline: at), "user:\(u):deadline:1772366400123:last_call"),
            (.alertRound(incident: incident, round: 3, responder: other), "incident:\(i):round:3:\(o)"),
            (.raisedAgain(incident: incident, window: 29_539_440, responder: other), "incident:\(i):again:29539440:\(o)"),
            (.alerted(incident: incident, person: user), "incident:\(i):alerted:\(u)"),
            (.onIt(incident: incident, at: at, person: user), "incident:\(i):ack:1772366400123:\(u)"),
            (.claimLapsed(incident: incident, at: at, person: user), "incident:\(i):lapsed:1772366400123:\(u)"),
            (.claimed(incident: incident, by: other, window: 1_969_296, to: user), "incident:\(i):ack:\(o):w1969296:\(u)"),
            (
                .takenOver(incident: incident, by: other, window: 1_969_296, from: user),
                "incident:\(i):ack:\(o):w1969296:takeover:\(u)"
            ),
            (
                .unreachable(incident: incident, notification: notification, to: user),
                "incident:\(i):unreachable:0195b3c4-4444-7000-8000-000000000004:\(u)"
            ),
            (.resolved(incident: incident, round: 2, recipient: other), "incident:\(i):resolved:2:\(o)"),
            (
                .checkedInOnBehalf(of: user, checkIn: checkIn, to: other),
                "behalf:\(u):0195b3c4-7777-7000-8000-000000000007:\(o)"
            ),
            (.drill(drill, responder: other), "drill:0195b3c4-6666-7000-8000-000000000006:\(o)"),
            (.consentNotice(user: user, contact: other), "consent-notice:\(u):\(o)"),
            (.ping(ping, .sent), "ping:0195b3c4-5555-7000-8000-000000000005:sent"),
            (.ping(ping, .answered), "ping:0195b3c4-5555-7000-8000-000000000005:answered"),
            (.ping(ping, .cleared), "ping:0195b3c4-5555-7000-8000-000000000005:cleared"),
            (.callRequest(person: user, day: "2026-03-01", to: other), "call-request:\(u):2026-03-01:\(o)"),
        ])
    func spelling(key: StepKey, expected: String) {
        #expect(key.rawValue == expected)
        #expect(key.description == expected)
    }

    @Test func timesBeforeNineteenSeventyRoundDown() {
        #expect(StepKey.milliseconds(Date(timeIntervalSince1970: -0.0005)) == -1)
    }

    /// A call request's day is the person's calendar day: 23:30 UTC is already tomorrow in
    /// Paris and still today in New York.
    @Test func aCallRequestsDayIsHerLocalDay() throws {
        let late = Date(timeIntervalSince1970: 1_772_407_800)  // 2026-03-01T23:30:00Z
        #expect(StepKey.localDay(late, in: try #require(TimeZone(identifier: "Europe/Paris"))) == "2026-03-02")
        #expect(StepKey.localDay(late, in: try #require(TimeZone(identifier: "America/New_York"))) == "2026-03-01")
        #expect(StepKey.localDay(late, in: .gmt) == "2026-03-01")
    }

    @Test func differentStepsNeverShareAKey() {
        let keys: [StepKey] = [
            .reminder(user: Self.user, deadline: Self.at, leadSeconds: 3600),
            .reminder(user: Self.user, deadline: Self.at, leadSeconds: 600),
            .reminder(user: Self.user, deadline: Self.at.addingTimeInterval(1), leadSeconds: 3600),
            .lastCall(user: Self.user, deadline: Self.at),
            .claimed(incident: Self.incident, by: Self.other, window: 1, to: Self.user),
            .takenOver(incident: Self.incident, by: Self.other, window: 1, from: Self.user),
            .claimed(incident: Self.incident, by: Self.other, window: 2, to: Self.user),
        ]
        #expect(Set(keys).count == keys.count)
    }
}
