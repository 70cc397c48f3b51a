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

    init(_ schedule: CheckInSchedule, watchOnly: Bool = false) {
        isWatchOnly = watchOnly
        switch schedule {
        case let .interval(seconds):
            isInterval = !watchOnly
            isDaily = false
            intervals = WebController.intervalOptions(selected: seconds)
            dailyTime = "09:00"
            timeZone = nil
        case let .daily(hour, minute, zone):
            isInterval = false
            isDaily = !watchOnly
            intervals = WebController.intervalOptions(selected: 86400)
            dailyTime = String(format: "%02d:%02d", hour, minute)
            timeZone = zone.nonEmpty
        }
    }
}
