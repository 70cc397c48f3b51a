import Foundation
import LifeSignalAPI
import LifeSignalTestSupport
import Testing

/// `/v1/openapi.yaml` is emitted from the JSON document; it must say exactly the same thing.
@Suite("OpenAPI YAML")
struct OpenAPIYAMLTests {
    @Test func yamlIsEmitted() {
        let yaml = OpenAPIDocument.yaml
        #expect(yaml.hasPrefix("openapi: \"3.1.0\"\ninfo:"), "openapi then info first: \(yaml.prefix(60))")
        #expect(yaml.contains("\npaths:\n"))
    }

    /// The document has booleans (`required: true`, `uniqueItems: true`); they must come out as
    /// YAML booleans, not as 1/0 (JSONSerialization hands them over as NSNumbers).
    @Test func booleansStayBooleans() {
        let lines = OpenAPIDocument.yaml.split(separator: "\n")
        #expect(lines.contains { $0.hasSuffix("required: true") })
        #expect(lines.contains { $0.hasSuffix("uniqueItems: true") })
        #expect(lines.contains { $0.hasSuffix("default: false") })
        let numeric = lines.filter { $0.hasSuffix("required: 1") || $0.hasSuffix("required: 0") || $0.hasSuffix("uniqueItems: 1") }
        #expect(numeric.isEmpty, "booleans emitted as numbers: \(numeric.prefix(3))")
        // And numbers stay numbers.
        #expect(lines.contains { $0.hasSuffix("minimum: 3600") })
    }

    @Test func emptyContainersAreFlow() {
        // `security: []` of the public operations.
        #expect(OpenAPIDocument.yaml.contains("security: []\n"))
    }

    /// Parses the YAML with PyYAML and compares it to the JSON strictly (types included: in
    /// Python `True == 1`, so the comparison checks types itself). A Python without PyYAML
    /// fails the test, saying how to install it (`TestPython`).
    @Test func yamlRoundTripsToTheJSON() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-yaml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let yamlURL = directory.appendingPathComponent("openapi.yaml")
        let jsonURL = directory.appendingPathComponent("openapi.json")
        try Data(OpenAPIDocument.yaml.utf8).write(to: yamlURL)
        try OpenAPIDocument.json().write(to: jsonURL)

        let script = """
            import json, sys, yaml
            y = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
            j = json.load(open(sys.argv[2], encoding="utf-8"))
            problems = []
            def same(a, b, path):
                if type(a) is not type(b):
                    problems.append(f"{path}: YAML {type(a).__name__} {a!r:.60} vs JSON {type(b).__name__} {b!r:.60}")
                elif isinstance(a, dict):
                    for k in sorted(set(a) | set(b)):
                        if k not in a: problems.append(f"{path}/{k}: missing in YAML")
                        elif k not in b: problems.append(f"{path}/{k}: extra in YAML")
                        else: same(a[k], b[k], f"{path}/{k}")
                elif isinstance(a, list):
                    if len(a) != len(b): problems.append(f"{path}: {len(a)} items in YAML vs {len(b)} in JSON")
                    for i, (x, z) in enumerate(zip(a, b)): same(x, z, f"{path}/{i}")
                elif a != b:
                    problems.append(f"{path}: YAML {a!r:.60} vs JSON {b!r:.60}")
            same(y, j, "#")
            print("\\n".join(problems[:20]))
            sys.exit(1 if problems else 0)
            """
        let python = try await TestPython.importing("yaml")
        let result = try await runCommand(python, ["-c", script, yamlURL.path, jsonURL.path])
        #expect(result.status == 0, "YAML differs from JSON:\n\(result.output)")
    }
}
