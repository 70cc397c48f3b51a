import Foundation
import LifeSignalModels

/// What became of a check-in: recorded by the server, or queued on the device because the
/// server could not be reached. A queued check-in keeps its id, so sending it later (even
/// twice) records it once.
public enum CheckInOutcome: Hashable, Sendable {
    case recorded(CheckInResult)
    case queued(PendingCheckIn)
}

/// A check-in waiting on the device for the network to come back.
public struct PendingCheckIn: Hashable, Sendable, Codable, Identifiable {
    public var id: CheckInID
    public var clientAt: Date
    public var source: CheckIn.Source

    public init(id: CheckInID, clientAt: Date, source: CheckIn.Source = .app) {
        self.id = id
        self.clientAt = clientAt
        self.source = source
    }
}
