import Foundation
import LifeSignalModels
import LifeSignalRules
import Testing

@Suite("Check-ins as CSV")
struct CheckInCSVTests {
    @Test(arguments: [
        ("app", "app"),
        ("", ""),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("two\nlines", "\"two\nlines\""),
        ("cr\r\nlf", "\"cr\r\nlf\""),
        (" padded", "\" padded\""),
        ("Zoë's phone", "Zoë's phone"),
    ])
    func quotesOnlyWhatNeedsIt(value: String, written: String) {
        #expect(CheckInCSV.field(value) == written)
    }

    @Test func headerThenOneRowPerCheckInOldestFirst() throws {
        let ada = UserID(UUID(uuidString: "00000000-0000-7000-8000-00000000000a")!)
        let bob = UserID(UUID(uuidString: "00000000-0000-7000-8000-00000000000b")!)
        let first = CheckInID(UUID(uuidString: "00000000-0000-7000-8000-000000000001")!)
        let second = CheckInID(UUID(uuidString: "00000000-0000-7000-8000-000000000002")!)
        let third = CheckInID(UUID(uuidString: "00000000-0000-7000-8000-000000000003")!)
        let at = Date(timeIntervalSince1970: 1_795_770_000.25)
        let csv = CheckInCSV.render([
            CheckIn(id: first, userID: ada, at: at, clientAt: at.addingTimeInterval(-2), source: .app),
            CheckIn(id: second, userID: ada, at: at.addingTimeInterval(60), source: .responder, recordedBy: bob),
            CheckIn(id: third, userID: ada, at: at.addingTimeInterval(120), source: .device, device: "Door, \"front\""),
        ])
        #expect(
            csv == "id,at,source,recorded_by,client_at,device\r\n"
                + "00000000-0000-7000-8000-000000000001,2026-11-27T09:00:00.250Z,app,,2026-11-27T08:59:58.250Z,\r\n"
                + "00000000-0000-7000-8000-000000000002,2026-11-27T09:01:00.250Z,responder,00000000-0000-7000-8000-00000000000b,,\r\n"
                + "00000000-0000-7000-8000-000000000003,2026-11-27T09:02:00.250Z,device,,,\"Door, \"\"front\"\"\"\r\n")
        #expect(CheckInCSV.render([]) == "id,at,source,recorded_by,client_at,device\r\n")
    }

    @Test func fileNamesCarryTheDayInUTC() {
        // 23:30 on the 21st in UTC is already the 22nd in Berlin: the name says the 21st.
        let late = Date(timeIntervalSince1970: 1_795_303_800)
        #expect(DataExportFile.name(at: late, extension: "json") == "lifesignal-export-2026-11-21.json")
        #expect(DataExportFile.checkInsName(at: late) == "lifesignal-check-ins-2026-11-21.csv")
    }
}
