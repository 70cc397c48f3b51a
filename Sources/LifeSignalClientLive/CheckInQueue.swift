import Foundation
import LifeSignalClient
import LifeSignalAPI
import LifeSignalModels

/// Check-ins that could not reach the server, kept in order until they can. With a file,
/// the queue survives restarts (the CLI, the app after being killed).
public actor CheckInQueue {
    private let file: URL?
    private var items: [PendingCheckIn]

    /// A queue kept in memory only.
    public init() {
        file = nil
        items = []
    }

    /// A queue kept in a 0600 JSON file; an unreadable file counts as empty.
    public init(file: URL) {
        self.file = file
        items = (try? Data(contentsOf: file)).flatMap { try? APICoding.decoder.decode([PendingCheckIn].self, from: $0) } ?? []
    }

    /// The queue file of the Linux live value and the CLI, in the config directory.
    public static var defaultFile: URL { ConfigDirectory.current().appendingPathComponent("pending-check-ins.json") }

    public var pending: [PendingCheckIn] { items }

    public func enqueue(_ item: PendingCheckIn) throws {
        guard !items.contains(where: { $0.id == item.id }) else { return }
        items.append(item)
        try save()
    }

    public func remove(_ id: CheckInID) throws {
        items.removeAll { $0.id == id }
        try save()
    }

    private func save() throws {
        guard let file else { return }
        try PrivateFile.write(try APICoding.encoder.encode(items), to: file)
    }
}
