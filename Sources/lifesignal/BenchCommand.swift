import ArgumentParser

/// `lifesignal bench …`: measurements that print figures (never asserted in tests).
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measure LifeSignal on this machine (use a release build).",
        subcommands: [CheckInBench.self, EscalationBench.self, DailyCallsBench.self, HTTPFloorBench.self, StreamsBench.self])
}
