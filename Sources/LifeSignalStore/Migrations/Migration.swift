/// One numbered, append-only schema change, written for each dialect. Its number is its place
/// in ``all``; a database remembers each applied migration's checksum, and a released migration
/// whose text changed afterwards stops the server at start (see `Migrator`).
public struct Migration: Sendable {
    /// Its place in ``all``, from 1 (0 for a migration not in the list).
    public let version: Int
    public let name: String
    public let sqlite: String
    public let postgres: String

    /// A migration of the list: ``all`` gives it its number.
    init(name: String, sqlite: String, postgres: String) {
        self.init(version: 0, name: name, sqlite: sqlite, postgres: postgres)
    }

    /// A migration with its number given (tests of the migrator add migrations after the list).
    public init(version: Int, name: String, sqlite: String, postgres: String) {
        self.version = version
        self.name = name
        self.sqlite = sqlite
        self.postgres = postgres
    }

    public func sql(for dialect: SQLDialect) -> String {
        dialect == .sqlite ? sqlite : postgres
    }

    /// The SHA-256 of its text for `dialect`, as `schema_migrations.checksum` keeps it.
    public func checksum(for dialect: SQLDialect) -> String { SHA256Hex.of(sql(for: dialect)) }
}

extension Migration {
    /// Every migration, in order, numbered by place. Append only: a released migration never
    /// changes, and none is ever removed or moved.
    public static let all: [Migration] = numbered([
        .m0001Initial, .m0002ContactRequests, .m0003Retention, .m0004WebhookSecrets, .m0005PersonTimeZone, .m0006WatchOnly,
        .m0007TextReplies, .m0008SafeReplies, .m0009TimelineSeal, .m0010Instances, .m0011PersonLanguage, .m0012FallbackNext,
        .m0013SealedDetails, .m0014Ladders, .m0015DailyCalls, .m0016DailyCallSetups, .m0017CallInPin, .m0018DeviceLinks,
        .m0019DailyTimes, .m0020Plans, .m0021AddedTime, .m0022QuietHours, .m0023Pauses, .m0024Location, .m0025PlanCheckIns,
        .m0026DeliveryPaceRank, .m0027OverdueFirst,
    ])

    private static func numbered(_ list: [Migration]) -> [Migration] {
        list.enumerated().map { place, migration in
            Migration(version: place + 1, name: migration.name, sqlite: migration.sqlite, postgres: migration.postgres)
        }
    }
}
