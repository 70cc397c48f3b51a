import Foundation
import LifeSignalLanguage
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

/// A daily call said in a line, in the reader's language.
struct DailyCallWordsTests {
    @Test func theCallIsSaidInTheReadersLanguage() {
        let every = DailyCall(hour: 9, minute: 0, timeZone: "Europe/London")
        #expect(every.summary(.english) == "a call every day at 09:00 (Europe/London time) to your phone, tried up to 3 times")
        let some = DailyCall(
            hour: 18, minute: 30, timeZone: "Europe/Berlin", attempts: 1, weekdays: [5, 1, 3], number: "+4915112345678")
        #expect(
            some.summary(.english)
                == "a call on Monday, Wednesday and Friday at 18:30 (Europe/Berlin time) to +4915112345678, tried once")
        #expect(
            some.summary(Words(Language("de")!))
                == "ein Anruf um 18:30 (Zeitzone Europe/Berlin) an +4915112345678, ein Versuch; an diesen Tagen: Montag, Mittwoch und Freitag"
        )
    }
}
