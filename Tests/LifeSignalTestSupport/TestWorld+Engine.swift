import LifeSignalCore
@_spi(Testing) import LifeSignalStore

extension EscalationEngine {
    /// Runs passes until one finds nothing to do.
    public func runUntilIdle() async throws {
        while try await runPass().total > 0 {}
    }
}

extension TestWorld {
    /// Runs an engine of its own, named `instance`, until it has nothing left to do.
    public func settle(instance: String) async throws {
        try await EscalationEngine(core: core, instance: instance).runUntilIdle()
    }

    /// Every row of the tables a message or a record is made from, as one text: for showing
    /// that something private (sealed details, a location) reached none of them.
    public func everythingSent() async throws -> String {
        var all = ""
        for table in ["notifications", "deliveries", "timeline", "incidents", "users"] {
            let rows = try await store.read { tx in try await tx.executor.query("SELECT * FROM \(table)", []) }
            all += String(describing: rows)
        }
        return all
    }
}
