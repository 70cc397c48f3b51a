import ArgumentParser
import Foundation
import Hummingbird
import LifeSignalAPI
import LifeSignalModels
import LifeSignalServer

/// What this machine's HTTP stack alone can do: the check-in route with nothing behind it.
///
/// A second `lifesignal` process serves `POST /v1/check-ins` on Hummingbird exactly as the
/// server's route is reached (same request, same JSON decoding of the body, the same
/// request context and decoder, a `CheckInResult` encoded as the API encodes it, 201), but without authentication, service or
/// database. `bench check-ins`' load generator drives it the same way. The figure is the ceiling
/// `bench check-ins` can approach on this machine: everything LifeSignal does for a check-in
/// (token lookup, a durable write, the timeline entry) comes on top of it.
struct HTTPFloorBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http-floor", abstract: "The HTTP/JSON ceiling: the check-in route with no service or database behind it.")

    @Option(help: "Seconds to run each concurrency level.") var seconds = 5.0
    @Option(parsing: .upToNextOption, help: "Concurrent connections to measure.") var concurrency: [Int] = [1, 64]
    @Option(help: "Port for the bare server.") var port = 18180
    @Flag(help: .hidden) var serveOnly = false

    func run() async throws {
        if serveOnly { return try await Self.serve(port: port) }
        let server = try BenchServer.start(["bench", "http-floor", "--serve-only", "--port", String(port)], port: port)
        defer { server.stop() }
        try await server.waitUntilReady()

        let tokens = (0..<10_000).map { "floor_\($0)" }
        let results = try await CheckInLoad.levels(
            concurrency, ports: [port], tokens: tokens, seconds: seconds, rssMegabytes: server.peakRSSMegabytes)
        if let last = results.last {
            print(String(format: "http-floor: rps=%.0f p50_ms=%.2f p99_ms=%.2f", last.rps, last.p50, last.p99))
        }
    }

    /// The bare server: `/health` and the check-in route, answered from memory.
    static func serve(port: Int) async throws {
        let router = Router(context: AppRequestContext.self)
        router.get("/health") { _, _ in HTTPResponse.Status.ok }
        let user = UserID(UUID())
        router.post("/v1/check-ins") { request, context in
            let body = try await request.decode(as: CheckInBody.self, context: context)
            let now = Date()
            let result = CheckInResult(
                checkIn: CheckIn(id: body.id, userID: user, at: now, clientAt: body.clientAt, source: body.source ?? .app),
                status: CheckInStatus(
                    userID: user, lastCheckInAt: now, deadline: now.addingTimeInterval(86400), secondsLeft: 86400,
                    state: .ok, pausedUntil: nil, openIncident: nil, periodSeconds: 86400),
                duplicate: false)
            return JSON(result, status: .created)
        }
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "LifeSignal"))
        try await app.runService()
    }
}
