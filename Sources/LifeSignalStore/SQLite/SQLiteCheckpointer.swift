import CSQLite
import Foundation

/// Copies the WAL back into the database file on a thread of its own, so the writer never
/// stalls on a checkpoint (SQLite's automatic one runs inside whichever COMMIT crosses the
/// threshold: tens of milliseconds of page copies and an fsync on a request's path).
///
/// The writer's WAL hook reports the WAL size after each commit; past `pages` this thread is
/// woken to run a PASSIVE checkpoint on its own connection, which never blocks the writer or
/// the readers. Should it fall behind, the writer checkpoints inline past `4 × pages`, as
/// SQLite's automatic checkpoint would have.
final class SQLiteCheckpointer: @unchecked Sendable {
    let pages: Int32
    private let connection: SQLiteConnection
    private let condition = NSCondition()
    private var requested = false
    private var stopped = false
    private var exited = false

    init(path: String, pages: Int) throws {
        self.pages = Int32(max(100, pages))
        connection = try SQLiteConnection(path: path, readOnly: false)
        let thread = Thread { [self] in loop() }
        thread.name = "sqlite-checkpoint"
        thread.start()
    }

    /// Called by the writer after each commit (from the WAL hook).
    func walSize(_ frames: Int32, writer: OpaquePointer?) {
        if frames >= pages * 4 {
            sqlite3_wal_checkpoint_v2(writer, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        } else if frames >= pages {
            condition.lock()
            requested = true
            condition.signal()
            condition.unlock()
        }
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the thread, waits until it has left its connection alone, and closes that connection.
    func stopAndClose() {
        stop()
        condition.lock()
        while !exited { condition.wait() }
        condition.unlock()
        connection.close()
    }

    private func loop() {
        while true {
            condition.lock()
            while !requested && !stopped { condition.wait() }
            requested = false
            let stop = stopped
            if stop {
                exited = true
                condition.broadcast()
            }
            condition.unlock()
            if stop { return }
            try? connection.run("PRAGMA wal_checkpoint(PASSIVE)")
        }
    }
}
