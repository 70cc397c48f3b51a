import Foundation
import Testing

@testable import LifeSignalCore
import LifeSignalModels

/// Timeline detail is written by hand for speed; it must stay byte for byte what
/// JSONSerialization writes (sorted keys, slashes unescaped).
struct DetailJSONTests {
    @Test("Detail.json matches JSONSerialization for every ASCII character and some Unicode")
    func matchesFoundation() {
        var samples = [
            "", "plain", "a\"b", "back\\slash", "sl/ash", "tab\tnl\ncr\r", "\u{8}\u{c}", "\u{0}\u{1}\u{1f}",
            "\u{7f}", "é ü 中文 🆘", "\u{2028}\u{2029}", "x</script>", "Checked in (app)",
        ]
        samples += (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        for text in samples {
            for fields in [["k": text], ["id": text, "source": "app", "deadline": text + "x"], ["zeta": text, "alpha": "1"]] {
                #expect(Detail.json(fields) == Detail.foundationJSON(fields), "\(Array(text.unicodeScalars))")
            }
        }
        // Keys Foundation sorts its own way still go through it.
        let odd = ["Zeta": "1", "alpha": "2", "_u": "3", "10": "4", "9": "5"]
        #expect(Detail.json(odd) == Detail.foundationJSON(odd))
    }
}

/// Each kind's detail is written as the flat string-valued JSON entries have always had, so a
/// reader (and the hash chain) sees the same text whichever type wrote it.
struct TimelineDetailTests {
    static let user = UserID(string: "019a0000-0000-7000-8000-000000000001")!
    static let other = UserID(string: "019a0000-0000-7000-8000-000000000002")!
    static let incident = IncidentID(string: "019a0000-0000-7000-8000-000000000003")!
    static let notification = NotificationID(string: "019a0000-0000-7000-8000-000000000004")!
    static let at = ISODate.parse("2026-11-21T09:30:00.000Z")!

    @Test func everyKindWritesItsFieldsAsStrings() {
        let u = Self.user.description, o = Self.other.description, i = Self.incident.description, n = Self.notification.description
        let cases: [(String, String, String)] = [
            (AccountCreated.kind, TimelineDetailEncoder.json(AccountCreated()), "{}"),
            (
                CheckedIn.kind, TimelineDetailEncoder.json(CheckedIn(id: CheckInID(string: u)!, source: .web, deadline: Self.at)),
                #"{"deadline":"2026-11-21T09:30:00.000Z","id":"\#(u)","source":"web"}"#
            ),
            (SettingsChanged.kind, TimelineDetailEncoder.json(SettingsChanged(watchOnly: true)), #"{"watchOnly":"true"}"#),
            (
                SettingsChanged.kind, TimelineDetailEncoder.json(SettingsChanged(deadline: Self.at)),
                #"{"deadline":"2026-11-21T09:30:00.000Z"}"#
            ),
            (Paused.kind, TimelineDetailEncoder.json(Paused(until: Self.at)), #"{"until":"2026-11-21T09:30:00.000Z"}"#),
            (Resumed.kind, TimelineDetailEncoder.json(Resumed()), #"{"until":""}"#),
            (
                IncidentReopened.kind, TimelineDetailEncoder.json(IncidentReopened(incident: Self.incident, told: 3)),
                #"{"incident":"\#(i)","told":"3"}"#
            ),
            (
                IncidentResolved.kind,
                TimelineDetailEncoder.json(IncidentResolved(incident: Self.incident, resolution: .checkedIn, by: Self.other)),
                #"{"by":"\#(o)","incident":"\#(i)","resolution":"checked_in"}"#
            ),
            (
                NotificationSent.kind,
                TimelineDetailEncoder.json(NotificationSent(notification: Self.notification, type: .incidentOpened, recipient: Self.other)),
                #"{"notification":"\#(n)","recipient":"\#(o)","type":"incident_opened"}"#
            ),
            (
                TextsStopped.kind, TimelineDetailEncoder.json(TextsStopped(address: "+447700900123", message: "SM1\"/")),
                #"{"address":"+447700900123","message":"SM1\"/"}"#
            ),
            (
                DrillSent.kind,
                TimelineDetailEncoder.json(DrillSent(drill: DrillID(string: i)!, notifications: [(Self.other, Self.notification)])),
                #"{"drill":"\#(i)","notifications":"\#(o):\#(n)"}"#
            ),
        ]
        for (kind, written, expected) in cases {
            #expect(written == expected, "\(kind)")
        }
    }

    @Test func aDrillReadsBackWhatItWrote() throws {
        let sent = DrillSent(
            drill: DrillID(string: Self.incident.description)!,
            notifications: [(Self.user, Self.notification), (Self.other, Self.notification)])
        let read = try #require(DrillSent.read(TimelineDetailEncoder.json(sent)))
        #expect(read.drill == sent.drill)
        #expect(read.notifications.map(\.0) == [Self.user, Self.other])
        #expect(DrillSent.read("{}") == nil)
    }
}
