import Foundation

/// The Python that tests run their helpers on (an SMTP sink, the Prometheus parser, a YAML
/// check): `LIFESIGNAL_PYTHON` when set (`scripts/test.sh` sets it to the package's `.venv`),
/// else the package's `.venv`, else `python3` on the PATH.
public enum TestPython {
    /// The first of those candidates that can import `module`. Set but unable to, or none
    /// able to: an error that says how to install it, so a test needing it fails rather than
    /// passing unseen. The checks run on threads of their own.
    public static func importing(_ module: String) async throws -> String {
        let candidates = candidates()
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            if try await runCommand(candidate, ["-c", "import \(module)"]).status == 0 { return candidate }
        }
        throw TestPythonError(
            description: """
                No Python that can import \(module) (tried \(candidates)). Install it:
                python3 -m venv .venv && .venv/bin/pip install -r scripts/test-requirements.txt
                (or point LIFESIGNAL_PYTHON at a Python that has it).
                """)
    }

    static func candidates() -> [String] {
        let environment = ProcessInfo.processInfo.environment
        if let configured = environment["LIFESIGNAL_PYTHON"], !configured.isEmpty { return [configured] }
        // Tests/LifeSignalTestSupport/TestPython.swift → the package's root
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return [root.appendingPathComponent(".venv/bin/python3").path, FileManager.default.currentDirectoryPath + "/.venv/bin/python3"]
            + (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/python3" }
    }
}

public struct TestPythonError: Error, CustomStringConvertible {
    public var description: String
}
