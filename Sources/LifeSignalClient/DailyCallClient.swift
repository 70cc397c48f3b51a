import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalModels

/// Daily calls set up for someone without a smartphone ("call Mum every day at 09:00"), which
/// start only when she agrees on the first call.
@DependencyClient
public struct DailyCallClient: Sendable {
    /// Asks LifeSignal to call her; the answer is pending her yes.
    public var setUp:
        @Sendable (_ firstName: String, _ lastName: String, _ phone: String, _ time: String, _ timeZone: String) async throws ->
            DailyCallSetup
    /// The requests the caller made, newest first.
    public var list: @Sendable () async throws -> [DailyCallSetup]
    /// Takes back a request she has not answered.
    public var cancel: @Sendable (_ id: DailyCallSetupID) async throws -> DailyCallSetup
    /// Marks someone on a daily call away until a date (nil: ends it); she is told by a call.
    public var setAway: @Sendable (_ person: UserID, _ until: Date?) async throws -> CheckInStatus
}

extension DailyCallClient: TestDependencyKey {
    public static let testValue = DailyCallClient()
}

extension DependencyValues {
    public var dailyCallClient: DailyCallClient {
        get { self[DailyCallClient.self] }
        set { self[DailyCallClient.self] = newValue }
    }
}
