import Foundation

/// A check-in as recorded, with the status that follows from it.
public struct CheckInResult: Sendable, Hashable, Codable {
    public var checkIn: CheckIn
    public var status: CheckInStatus
    /// True when this id had been recorded before: nothing changed this time.
    public var duplicate: Bool

    public init(checkIn: CheckIn, status: CheckInStatus, duplicate: Bool) {
        self.checkIn = checkIn
        self.status = status
        self.duplicate = duplicate
    }
}
