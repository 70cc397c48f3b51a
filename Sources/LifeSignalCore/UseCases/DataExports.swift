import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalStore

/// A person's own data, whole, to take away: the JSON document and her check-ins as CSV.
/// Only what she can already read through the API, gathered for her alone.
public struct DataExports: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

extension DataExports {
    /// How many rows each read takes: the history may be years long.
    static let pageSize = 1_000

    /// Everything of hers (``DataExport``). Counts towards the export limit first, so a
    /// refused export reads nothing. The parts are read one after another, not as one
    /// snapshot: something that happens meanwhile may show in a later part only.
    public func export(_ caller: Caller) async throws -> DataExport {
        try await countExport(caller)
        let exportedAt = core.now
        let profile = try await Profiles(core).profile(caller)
        let contacts = try await Contacts(core).contacts(caller, sort: .name)
        let checkIns = try await allCheckIns(caller)
        var incidents: [Incident] = []
        var last: Incident?
        repeat {
            let page = try await core.read { [last] in
                try await $0.incidents.list(of: caller.user.id, after: last, limit: Self.pageSize)
            }
            incidents += page
            last = page.count == Self.pageSize ? page.last : nil
        } while last != nil
        var timeline: [TimelineEntry] = []
        try await Timeline(core).forEachTimelinePage(caller) { timeline += $0 }
        return DataExport(
            exportedAt: exportedAt, profile: profile, contacts: contacts, checkIns: checkIns, incidents: incidents,
            timeline: timeline, deviceLinks: try await DeviceLinks(core).list(caller), plans: try await Plans(core).list(caller),
            locations: try await Locations(core).stored(caller))
    }

    /// Her check-ins, oldest first, for the CSV (`CheckInCSV`), and when they were read:
    /// counted as an export.
    public func checkIns(_ caller: Caller) async throws -> (exportedAt: Date, checkIns: [CheckIn]) {
        try await countExport(caller)
        let exportedAt = core.now
        return (exportedAt, try await allCheckIns(caller))
    }

    private func allCheckIns(_ caller: Caller) async throws -> [CheckIn] {
        var all: [CheckIn] = []
        var last: CheckIn?
        repeat {
            let page = try await core.read { [last] in
                try await $0.checkIns.list(of: caller.user.id, after: last, limit: Self.pageSize)
            }
            all += page
            last = page.count == Self.pageSize ? page.last : nil
        } while last != nil
        return all
    }

    /// An export reads everything she has: a few an hour are plenty, and a loop is refused
    /// (`too_many_exports`, 429) before it reads anything.
    private func countExport(_ caller: Caller) async throws {
        try await core.write { tx, _ in
            try await core.enforceLimit(
                core.configuration.limits.exports, refusal: .tooManyExports, sender: caller.user.id, recipient: nil,
                message: Said("error.tooManyExports"), tx: tx)
        }
    }
}
