import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels

// The check-in reminders the device shows itself: one per lead of the person's reminder
// choice, replaced whenever the deadline or the choice changes.
extension CheckInFeature {
    /// The device's own reminders before the deadline, so they ring even offline. None on a
    /// daily call: the calls are the reminders, so the ones set before are only taken down.
    func scheduleReminders(_ state: State) -> Effect<Action> {
        guard let deadline = state.nextCheckInDue else { return .none }
        let leads = state.dailyCall == nil ? state.reminders.leadSeconds : []
        // Made now, in the app's language: the effect shows them later.
        let w = Words.app
        return .run { _ in
            await localNotifications.cancel(Self.reminderIDs)
            for lead in leads {
                // A refused permission must not fail the check-in: the server's reminders
                // (SMS, push) still go out, so a failed local schedule is dropped on purpose.
                try? await localNotifications.schedule(
                    LocalReminder(
                        id: "check-in-reminder-\(lead)", fireAt: deadline.addingTimeInterval(-TimeInterval(lead)),
                        title: w("reminder.title"), body: w("app.reminder.body", ["duration": w.duration(seconds: lead)])))
            }
        }
    }

    static let reminderIDs = ReminderChoice.both.leadSeconds.map { "check-in-reminder-\($0)" }
}
