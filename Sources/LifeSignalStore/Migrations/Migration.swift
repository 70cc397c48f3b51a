/// One numbered, append-only schema change, written for each dialect.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    public let sqlite: String
    public let postgres: String

    public func sql(for dialect: SQLDialect) -> String {
        dialect == .sqlite ? sqlite : postgres
    }
}

extension Migration {
    /// Every migration, in order. Append only: a released migration never changes.
    public static let all: [Migration] = [
        .m0001Initial, .m0002ContactRequests, .m0003Retention, .m0004WebhookSecrets, .m0005PersonTimeZone, .m0006WatchOnly,
        .m0007TextReplies, .m0008SafeReplies, .m0009TimelineSeal, .m0010Instances, .m0011PersonLanguage, .m0012FallbackNext,
        .m0013SealedDetails, .m0014Ladders, .m0015DailyCalls, .m0016DailyCallSetups, .m0017CallInPin, .m0018DeviceLinks,
        .m0019DailyTimes, .m0020Plans, .m0021AddedTime, .m0022QuietHours, .m0023Pauses, .m0024Location, .m0025PlanCheckIns,
        .m0026DeliveryPaceRank,
    ]
}
