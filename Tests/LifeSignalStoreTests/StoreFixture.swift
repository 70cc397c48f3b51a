import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalStore

/// The databases the store contract runs against: SQLite always, PostgreSQL when
/// `LIFESIGNAL_TEST_POSTGRES_URL` is set (`eval "$(scripts/postgres.sh start)"`).
enum Backend: String, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    static let postgresURL: String? = {
        let value = ProcessInfo.processInfo.environment["LIFESIGNAL_TEST_POSTGRES_URL"] ?? ""
        return value.isEmpty ? nil : value
    }()

    static var all: [Backend] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }
    static var postgresOnly: [Backend] { postgresURL == nil ? [] : [.postgres] }

    var testDescription: String { rawValue }
}

/// A fresh, empty database for one test: a SQLite file in its own temporary directory, or a
/// PostgreSQL database `t_<random>` created through a maintenance connection and dropped after.
final class TestDatabase: Sendable {
    let backend: Backend
    /// What `open()` connects to: a file path or a postgres:// URL.
    let location: String
    private let cleanup: @Sendable () async -> Void

    private init(backend: Backend, location: String, cleanup: @escaping @Sendable () async -> Void) {
        self.backend = backend
        self.location = location
        self.cleanup = cleanup
    }

    static func make(_ backend: Backend) async throws -> TestDatabase {
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("lifesignal-store-\(UUID().uuidString.lowercased())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return TestDatabase(backend: .sqlite, location: directory.appendingPathComponent("store.sqlite").path) {
                try? FileManager.default.removeItem(at: directory)
            }
        case .postgres:
            let database = try await ScratchDatabase.make(next: try #require(Backend.postgresURL))
            return TestDatabase(backend: .postgres, location: database.url) { await database.drop() }
        }
    }

    /// Opens a new handle on this database (several may be open at once, like instances).
    func open() async throws -> any SQLDatabase {
        switch backend {
        case .sqlite: try SQLiteDatabase(path: location)
        case .postgres: try await PostgresDatabase.connect(url: location, logger: nil)
        }
    }

    func drop() async { await cleanup() }
}

/// Runs `body` on an unmigrated database handle, cleaning up after (also when it throws).
func withDatabase(
    _ backend: Backend, _ body: (any SQLDatabase, TestDatabase) async throws -> Void
) async throws {
    let test = try await TestDatabase.make(backend)
    do {
        let database = try await test.open()
        do {
            try await body(database, test)
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    } catch {
        await test.drop()
        throw error
    }
    await test.drop()
}

/// Runs `body` on a migrated store.
func withStore(_ backend: Backend, _ body: (Store) async throws -> Void) async throws {
    try await withDatabase(backend) { database, _ in
        try await Migrator.migrate(database)
        try await body(Store(database: database))
    }
}

/// Expects `body` to fail with `StoreError.constraint`.
func expectConstraint(
    _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async {
    do {
        try await body()
        Issue.record(
            "expected a constraint violation, but it succeeded. \(comment?.rawValue ?? "")",
            sourceLocation: sourceLocation)
    } catch let error as StoreError {
        guard case .constraint = error else {
            Issue.record("expected .constraint, got \(error)", sourceLocation: sourceLocation)
            return
        }
    } catch {
        Issue.record("expected StoreError.constraint, got \(error)", sourceLocation: sourceLocation)
    }
}

// MARK: Model values

/// A fixed clock origin, whole milliseconds (the stores keep milliseconds).
let t0 = Date(milliseconds: 1_760_000_000_000)

func at(_ seconds: Double) -> Date { Date(milliseconds: t0.milliseconds + Int64(seconds * 1000)) }

func makeUser(
    phone: String? = nil, code: String? = nil, schedule: CheckInSchedule = .default, createdAt: Date = t0
) -> User {
    let id = UserID(UUID())
    return User(
        id: id, phone: phone ?? "+1555\(Int.random(in: 1_000_000...9_999_999))", schedule: schedule,
        createdAt: createdAt,
        contactCode: code ?? UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))
}

@discardableResult
func insertUser(_ store: Store, _ user: User = makeUser()) async throws -> User {
    try await store.write { try await $0.people.insert(user, deadline: at(86400), nextActionAt: at(86400 - 1800)) }
    return user
}

func makeNotification(
    to recipient: UserID, type: LifeSignalModels.Notification.Kind = .drill, subject: UserID? = nil,
    incident: IncidentID? = nil, at date: Date = t0, title: String = "title"
) -> LifeSignalModels.Notification {
    LifeSignalModels.Notification(
        id: NotificationID(UUID()), recipientID: recipient, type: type, subjectUserID: subject,
        incidentID: incident, title: title, body: "body", createdAt: date)
}

func makeDelivery(_ notification: LifeSignalModels.Notification, address: String = "log") -> Delivery {
    Delivery(
        id: DeliveryID(UUID()), notificationID: notification.id, recipientID: notification.recipientID,
        channel: .log, address: address, status: .queued, createdAt: notification.createdAt,
        updatedAt: notification.createdAt)
}

struct Boom: Error, Equatable {}
