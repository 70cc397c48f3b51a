import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels

@testable import LifeSignalFeatures

/// Fixed people, dates and errors for the feature tests.
enum Fixtures {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static let user = User(
        id: UserID(UUID(uuidString: "00000000-0000-4000-8000-0000000000aa")!), phone: "+447700900123",
        firstName: "Ada", lastName: "Lovelace", emergencyNote: "Spare key with the neighbour.",
        lastCheckInAt: now.addingTimeInterval(-3600), createdAt: now.addingTimeInterval(-30 * 86400),
        contactCode: "0123456789abcdef0123456789abcdef", isOnboarded: true)

    static let serverError = APIError.server(status: 500, code: .internalError, message: "Test error", field: nil)
    static let serverFailure = UserFacingError(message: "Test error", reason: .refused(.internalError))
    static let offline = APIError.offline("connection refused")
    static let offlineFailure = UserFacingError(
        message: "Can't reach LifeSignal. Check your connection and try again.", reason: .offline)

    static func id(_ n: Int) -> UserID { UserID(UUID(n)) }

    static func status(
        of userID: UserID = user.id, lastCheckIn: Date?, deadline: Date, state: CheckInStatus.State = .ok
    ) -> CheckInStatus {
        CheckInStatus(
            userID: userID, lastCheckInAt: lastCheckIn, deadline: deadline,
            secondsLeft: Int(deadline.timeIntervalSince(now)), state: state, pausedUntil: nil, openIncident: nil)
    }

    static func checkInResult(_ id: CheckInID, at: Date, interval: TimeInterval = 86400) -> CheckInResult {
        CheckInResult(
            checkIn: CheckIn(id: id, userID: user.id, at: at, clientAt: at, source: .app),
            status: status(lastCheckIn: at, deadline: at.addingTimeInterval(interval)), duplicate: false)
    }

    /// The signed-in person's pending request to person `n`.
    static func request(_ n: Int, to name: String, roles: ContactRoles, from me: Int = 1) -> ContactRequest {
        ContactRequest(
            id: ContactRequestID(UUID(uuidString: String(format: "00000000-0000-7000-8000-0000000c%04d", n))!),
            fromUserID: id(me), toUserID: id(n), roles: roles, state: .pending,
            createdAt: Date(timeIntervalSince1970: 1_790_000_000), fromName: "Ada Test", toName: "\(name) Test")
    }

    static func contact(
        _ n: Int, _ first: String, roles: ContactRoles, addedDaysAgo: Double = 1, state: CheckInStatus.State? = nil,
        secondsLeft: Int = 3600, outgoingPing: Ping? = nil, incomingPing: Ping? = nil
    ) -> Contact {
        let id = id(n)
        return Contact(
            userID: id, firstName: first, lastName: "Test", phone: "+4477009001\(n)", emergencyNote: "",
            hasAvatar: false, roles: roles, addedAt: now.addingTimeInterval(-addedDaysAgo * 86400),
            status: state.map {
                CheckInStatus(
                    userID: id, lastCheckInAt: now, deadline: now.addingTimeInterval(TimeInterval(secondsLeft)),
                    secondsLeft: secondsLeft, state: $0, pausedUntil: nil, openIncident: nil)
            },
            outgoingPing: outgoingPing, incomingPing: incomingPing)
    }

    static func ping(_ n: Int, from: UserID, to: UserID, minutesAgo: Double = 5) -> Ping {
        Ping(id: PingID(UUID(100 + n)), fromUserID: from, toUserID: to, sentAt: now.addingTimeInterval(-minutesAgo * 60))
    }

    static func notification(
        _ n: Int, _ type: AppNotification.Kind, minutesAgo: Double, read: Bool = false
    ) -> AppNotification {
        AppNotification(
            id: NotificationID(UUID(200 + n)), recipientID: user.id, type: type, title: "Title \(n)", body: "Body \(n)",
            createdAt: now.addingTimeInterval(-minutesAgo * 60), readAt: read ? now.addingTimeInterval(-60) : nil)
    }
}

/// A device clock the test moves by hand, alongside the `TestClock` that drives timers.
final class ManualDate: Sendable {
    private let value: LockIsolated<Date>

    init(_ date: Date = Fixtures.now) {
        self.value = LockIsolated(date)
    }

    var now: Date { value.value }

    func advance(by seconds: TimeInterval) {
        value.withValue { $0.addTimeInterval(seconds) }
    }

    var generator: DateGenerator {
        DateGenerator { self.value.value }
    }
}

extension CheckInFeature.State {
    /// What a check-in the server recorded at `Fixtures.now` does to the screen, on the default
    /// daily rhythm: checked in, the next one due a day later, both buttons resting; with a
    /// confirmation, its alert shown.
    mutating func checkedInNow(confirming confirmation: (title: String, message: String)? = nil) {
        isCheckingIn = false
        lastCheckIn = Fixtures.now
        nextCheckInDue = Fixtures.now.addingTimeInterval(24 * 3600)
        isCoolingDown = true
        if let confirmation {
            destination = .alert(AlertState(title: confirmation.title, message: confirmation.message, buttons: [.cancel("OK")]))
        }
    }
}
