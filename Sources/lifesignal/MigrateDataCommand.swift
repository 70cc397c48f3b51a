import ArgumentParser
import Foundation
import LifeSignalStore

/// `lifesignal migrate-data`: moves an install from its SQLite file to PostgreSQL.
struct MigrateDataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-data",
        abstract: "Copy everything from a SQLite file into an empty PostgreSQL database.",
        discussion: """
            Stop the server first. Every table is copied in one transaction on the target, which
            must be empty (a copy that fails leaves it empty: fix the cause and run it again).
            Then start the server with --database set to the PostgreSQL URL.
            """)

    @Option(help: "The SQLite file: sqlite:PATH or a path.")
    var from: String

    @Option(help: "The empty PostgreSQL database: postgres://user:pass@host:port/db.")
    var to: String

    func validate() throws {
        guard !from.hasPrefix("postgres") else { throw ValidationError("--from is the SQLite file the server used.") }
        guard to.hasPrefix("postgres://") || to.hasPrefix("postgresql://") else {
            throw ValidationError("--to is a postgres:// URL.")
        }
        guard FileManager.default.fileExists(atPath: Self.path(from)) else {
            throw ValidationError("There is no SQLite file at \(Self.path(from)).")
        }
    }

    static func path(_ from: String) -> String {
        from.hasPrefix("sqlite://") ? String(from.dropFirst(9)) : from.hasPrefix("sqlite:") ? String(from.dropFirst(7)) : from
    }

    func run() async throws {
        let source = try await Store.open(Self.path(from))
        let target: Store
        do { target = try await Store.open(to) } catch {
            await source.close()
            throw error
        }
        let result: Result<[DataCopy.Table], any Error>
        do {
            result = .success(
                try await DataCopy.copy(from: source, to: target) { table in
                    Terminal.print("\(table.name): \(table.rows)")
                })
        } catch {
            result = .failure(error)
        }
        await source.close()
        await target.close()
        switch result {
        case let .success(tables):
            Terminal.print(
                "Copied \(tables.map(\.rows).reduce(0, +)) rows in \(tables.count) tables. Start the server with --database \(to.redactingPassword)."
            )
        case let .failure(error as StoreError):
            Terminal.error("lifesignal: \(error)")
            throw ExitCode.failure
        case let .failure(error):
            throw error
        }
    }
}

extension String {
    /// A database URL with its password replaced, for printing.
    var redactingPassword: String {
        guard var components = URLComponents(string: self), components.password != nil else { return self }
        components.password = "****"
        return components.string ?? self
    }
}
