import ArgumentParser
import Foundation

/// The options every client command takes.
struct ClientOptions: ParsableArguments {
    @Option(help: "The LifeSignal server. Env: LIFESIGNAL_SERVER (default http://localhost:8080).")
    var server: String?

    @Flag(help: "Print the JSON of the response instead of text, for scripts.")
    var json = false

    /// `LIFESIGNAL_TOKEN`: a token for scripts (`lifesignal token create`), used instead of
    /// the stored one; nil or empty when unset.
    var environmentToken: String? {
        ProcessInfo.processInfo.environment["LIFESIGNAL_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }

    var serverURL: URL {
        get throws {
            let text = server ?? ProcessInfo.processInfo.environment["LIFESIGNAL_SERVER"] ?? "http://localhost:8080"
            guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                throw ValidationError("--server must be an http(s) URL like http://localhost:8080, got \(text)")
            }
            return url
        }
    }
}
