/// Which reminders a person gets before their deadline.
public enum ReminderChoice: String, CaseIterable, Codable, Hashable, Sendable {
    case none
    case thirtyMinutes = "30m"
    case twoHours = "2h"
    case both

    public static let `default` = ReminderChoice.thirtyMinutes

    /// Seconds before the deadline at which a reminder goes out, largest first.
    public var leadSeconds: [Int] {
        switch self {
        case .none: []
        case .thirtyMinutes: [1800]
        case .twoHours: [7200]
        case .both: [7200, 1800]
        }
    }
}
