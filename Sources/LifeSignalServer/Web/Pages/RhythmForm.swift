import LifeSignalModels

/// The rhythm fields (`{{> rhythm-fields}}`) filled with the person's current schedule, so
/// changing one part never silently turns a daily deadline into an interval (or back).
struct RhythmForm {
    let isInterval: Bool
    let isDaily: Bool
    let isWatchOnly: Bool
    let intervals: [Choice]
    let dailyTime: String
    let timeZone: String?
    /// Onboarding asks "Do you want check-ins yourself?" with nothing chosen for the person:
    /// someone who joined to watch over a neighbour is never put on a rhythm by default.
    let asks: Bool

    init(_ schedule: CheckInSchedule, watchOnly: Bool = false, asks: Bool = false) {
        self.asks = asks
        isWatchOnly = watchOnly && !asks
        switch schedule {
        case let .interval(seconds):
            isInterval = !watchOnly && !asks
            isDaily = false
            intervals = WebController.intervalOptions(selected: seconds)
            dailyTime = "09:00"
            timeZone = nil
        case let .daily(hour, minute, zone):
            isInterval = false
            isDaily = !watchOnly && !asks
            intervals = WebController.intervalOptions(selected: 86400)
            dailyTime = String(format: "%02d:%02d", hour, minute)
            timeZone = zone.nonEmpty
        }
    }
}
