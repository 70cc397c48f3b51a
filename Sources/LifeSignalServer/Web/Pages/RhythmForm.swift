import LifeSignalModels

/// The rhythm fields (`{{> rhythm-fields}}`) filled with the person's current schedule, so
/// changing one part never silently turns a daily deadline into an interval (or back).
struct RhythmForm {
    let isInterval: Bool
    let isDaily: Bool
    let isCall: Bool
    let isWatchOnly: Bool
    let intervals: [Choice]
    /// The daily schedule's time rows (see ``DailyTimesForm``).
    let dailyRows: [DailyTimesForm.Row]
    let timeZone: String?
    /// The daily call's fields: first call, tries, minutes between them, the number rung
    /// (empty: her own phone).
    let callTime: String
    let attemptChoices: [Choice]
    let retryChoices: [Choice]
    let callNumber: String
    /// Onboarding asks "Do you want check-ins yourself?" with nothing chosen for the person:
    /// someone who joined to watch over a neighbour is never put on a rhythm by default.
    let asks: Bool

    init(_ schedule: CheckInSchedule, watchOnly: Bool = false, asks: Bool = false) {
        self.asks = asks
        isWatchOnly = watchOnly && !asks
        let call = schedule.dailyCall
        isCall = call != nil && !watchOnly && !asks
        callTime = call?.time ?? "09:00"
        attemptChoices = DailyCall.attemptRange.map {
            Choice(value: String($0), label: String($0), selected: $0 == call?.attempts ?? DailyCall.defaultAttempts)
        }
        retryChoices = DailyCall.retryPresets.map {
            Choice(
                value: String($0), label: say("web.rhythm.minutes", count: $0),
                selected: $0 == call?.retryMinutes ?? DailyCall.defaultRetryMinutes)
        }
        callNumber = call?.number ?? ""
        switch schedule {
        case let .interval(seconds):
            isInterval = !watchOnly && !asks
            isDaily = false
            intervals = WebController.intervalOptions(selected: seconds)
            dailyRows = DailyTimesForm.rows(nil)
            timeZone = nil
        case let .daily(daily):
            isInterval = false
            isDaily = !watchOnly && !asks
            intervals = WebController.intervalOptions(selected: 86400)
            dailyRows = DailyTimesForm.rows(daily)
            timeZone = daily.timeZone.nonEmpty
        case let .dailyCall(call):
            isInterval = false
            isDaily = false
            intervals = WebController.intervalOptions(selected: 86400)
            dailyRows = DailyTimesForm.rows(nil)
            timeZone = call.timeZone.nonEmpty
        }
    }
}

extension RhythmForm {
    /// What the form's `rhythm` field says: the one list of its answers, read by every route
    /// that takes the form, so an answer the form offers is never refused by one of them.
    enum Answer: String, CaseIterable {
        case interval, daily
        case dailyCall = "daily_call"
        case watch

        init?(_ form: [String: String]) {
            self.init(rawValue: form["rhythm"] ?? "")
        }
    }
}
