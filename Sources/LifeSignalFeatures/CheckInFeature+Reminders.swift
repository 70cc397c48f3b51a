import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels

// The check-in reminders the device shows itself: one per lead of the person's reminder
// choice, replaced whenever the deadline or the choice changes.
extension CheckInFeature {
    /// The device's own reminders before the deadline, so they ring even offline.
    func scheduleReminders(_ state: State) -> Effect<Action> {
        guard let deadline = state.nextCheckInDue else { return .none }
        let leads = state.reminders.leadSeconds
        return .run { _ in
            await localNotifications.cancel(Self.reminderIDs)
            for lead in leads {
                let minutes = lead / 60
                // A refused permission must not fail the check-in: the server's reminders
                // (SMS, push) still go out, so a failed local schedule is dropped on purpose.
                try? await localNotifications.schedule(
                    LocalReminder(
                        id: "check-in-reminder-\(lead)", fireAt: deadline.addingTimeInterval(-TimeInterval(lead)),
                        title: "Time to check in",
                        body: minutes >= 60
                            ? "Check in within \(minutes / 60) hours to let your contacts know you're OK."
                            : "Check in within \(minutes) minutes to let your contacts know you're OK."))
            }
        }
    }

    static let reminderIDs = ReminderChoice.both.leadSeconds.map { "check-in-reminder-\($0)" }
}
