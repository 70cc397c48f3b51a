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
    /// "I'm OK, but please call me today": sent with it when the network returns.
    public var callMe: Bool

    public init(id: CheckInID, clientAt: Date, source: CheckIn.Source = .app, callMe: Bool = false) {
        self.id = id
        self.clientAt = clientAt
        self.source = source
        self.callMe = callMe
    }

    private enum CodingKeys: String, CodingKey { case id, clientAt, source, callMe }

    /// Queue files written before `callMe` existed have none: those check-ins asked for nothing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(CheckInID.self, forKey: .id)
        clientAt = try container.decode(Date.self, forKey: .clientAt)
        source = try container.decode(CheckIn.Source.self, forKey: .source)
        callMe = try container.decodeIfPresent(Bool.self, forKey: .callMe) ?? false
    }
}
