// swift-tools-version:6.1
import PackageDescription

// The dependency list is deliberate: every package here is one the product
// uses at run time or in its tests. CI builds all of it cold on every run.
let package = Package(
    name: "LifeSignal",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "lifesignal", targets: ["lifesignal"]),
        .library(name: "LifeSignalModels", targets: ["LifeSignalModels"]),
        .library(name: "LifeSignalRules", targets: ["LifeSignalRules"]),
        .library(name: "LifeSignalClient", targets: ["LifeSignalClient"]),
        .library(name: "LifeSignalClientLive", targets: ["LifeSignalClientLive"]),
        .library(name: "LifeSignalFeatures", targets: ["LifeSignalFeatures"]),
        .library(name: "ComposableCore", targets: ["ComposableCore"]),
        .library(name: "ComposableCoreTesting", targets: ["ComposableCoreTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // The settings file (JSON, the package's default trait) layered under the environment.
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies.git", from: "1.17.1"),
        .package(url: "https://github.com/pointfreeco/swift-case-paths.git", from: "1.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks.git", from: "1.1.1"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump.git", from: "1.7.3"),
        .package(url: "https://github.com/pointfreeco/swift-identified-collections.git", from: "1.1.1"),
        .package(url: "https://github.com/pointfreeco/swift-concurrency-extras.git", from: "1.4.3"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay.git", from: "1.13.1"),
    ],
    targets: [
        // MARK: Shared value types and pure rules (Foundation only: the iOS app uses them too)
        .target(name: "LifeSignalModels"),
        // Every sentence in every language: the string catalogue, its reader, plural rules,
        // language tags, the cost of a text message. Foundation only, like Models and Rules.
        .target(name: "LifeSignalLanguage", resources: [.copy("Localizable.xcstrings")]),
        .target(name: "LifeSignalRules", dependencies: ["LifeSignalModels", "LifeSignalLanguage"]),
        .target(
            name: "LifeSignalAPI",
            dependencies: ["LifeSignalModels"],
            resources: [.copy("openapi.json")]
        ),

        // MARK: Storage
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // Phone numbers as people type them in their country: Google's libphonenumber (Debian's
        // libphonenumber-dev) behind a small C face, and a Swift wrapper the server uses.
        .target(
            name: "CPhoneNumber",
            linkerSettings: [.linkedLibrary("phonenumber"), .linkedLibrary("stdc++")]
        ),
        .target(name: "LifeSignalPhone", dependencies: ["CPhoneNumber", "LifeSignalRules"]),
        .target(
            name: "LifeSignalStore",
            dependencies: [
                "LifeSignalModels", "CSQLite",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: Delivery
        .target(
            name: "LifeSignalDelivery",
            dependencies: [
                "LifeSignalModels", "LifeSignalRules", "LifeSignalLanguage",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),

        // MARK: The service
        .target(
            name: "LifeSignalCore",
            dependencies: [
                "LifeSignalModels", "LifeSignalRules", "LifeSignalLanguage", "LifeSignalStore", "LifeSignalDelivery",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),

        // MARK: The edge
        .target(
            name: "LifeSignalServer",
            dependencies: [
                "LifeSignalModels", "LifeSignalRules", "LifeSignalLanguage", "LifeSignalAPI", "LifeSignalStore",
                "LifeSignalDelivery", "LifeSignalCore", "CQREncode", "LifeSignalPhone",
                .product(name: "Hummingbird", package: "hummingbird"),
                // HTTPServerBuilder: `LifeSignalApplication` forwards the server it was built with.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                // `LiveStreamHandler`: `GET /v1/events` held in the HTTP/1 pipeline, without a task.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                // `LiveHTTP1Channel`: Hummingbird's HTTP/1 pipeline, built as `HTTP1Channel` builds it.
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            resources: [.copy("Public"), .copy("Templates")]
        ),

        // MARK: App logic
        .target(
            name: "ComposableCore",
            dependencies: [
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "CasePaths", package: "swift-case-paths"),
                .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
            ]
        ),
        .target(
            name: "ComposableCoreTesting",
            dependencies: [
                "ComposableCore",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
        .target(
            name: "LifeSignalClient",
            dependencies: [
                // Interfaces, test and preview values only: the app logic builds without NIO.
                "LifeSignalModels",
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "DependenciesMacros", package: "swift-dependencies"),
            ]
        ),
        .target(
            name: "LifeSignalClientLive",
            dependencies: [
                // The live values over the /v1 API, the offline check-in queue, files on disk.
                "LifeSignalClient", "LifeSignalModels", "LifeSignalAPI",
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .target(
            name: "LifeSignalFeatures",
            dependencies: ["ComposableCore", "LifeSignalClient", "LifeSignalModels", "LifeSignalRules", "LifeSignalLanguage"]
        ),

        // MARK: The executable
        .executableTarget(
            name: "lifesignal",
            dependencies: [
                "LifeSignalServer", "LifeSignalClient", "LifeSignalClientLive", "LifeSignalCore", "LifeSignalStore",
                "LifeSignalLanguage", "LifeSignalRules",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // MARK: Tests
        .testTarget(name: "LifeSignalLanguageTests", dependencies: ["LifeSignalLanguage"]),
        .testTarget(name: "LifeSignalRulesTests", dependencies: ["LifeSignalRules", "LifeSignalLanguage"]),
        .testTarget(name: "LifeSignalAPITests", dependencies: ["LifeSignalAPI", "LifeSignalRules", "LifeSignalTestSupport"]),
        .testTarget(name: "LifeSignalStoreTests", dependencies: ["LifeSignalStore", "LifeSignalModels"]),
        .testTarget(
            name: "LifeSignalDeliveryTests",
            dependencies: [
                "LifeSignalDelivery", "LifeSignalLanguage", "LifeSignalTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // What every test target shares: how tests wait (signals, a failure deadline), and the
        // one world (`TestWorld`: the server from `buildApplication` on a temporary SQLite file,
        // a manual clock, a code book) core, server, client and CLI tests build on.
        .target(
            name: "LifeSignalTestSupport",
            dependencies: [
                "LifeSignalServer", "LifeSignalCore", "LifeSignalStore", "LifeSignalModels",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            path: "Tests/LifeSignalTestSupport"
        ),
        .testTarget(name: "LifeSignalCoreTests", dependencies: ["LifeSignalCore", "LifeSignalLanguage", "LifeSignalTestSupport"]),
        .testTarget(
            name: "LifeSignalServerTests",
            dependencies: [
                "LifeSignalServer", "LifeSignalAPI", "LifeSignalPhone", "LifeSignalTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(name: "ComposableCoreTests", dependencies: ["ComposableCore", "ComposableCoreTesting"]),
        .testTarget(
            name: "LifeSignalFeaturesTests",
            dependencies: [
                "LifeSignalFeatures", "ComposableCoreTesting", "LifeSignalClient", "LifeSignalModels", "LifeSignalRules",
                "LifeSignalLanguage",
            ]
        ),
        .testTarget(
            name: "LifeSignalClientTests",
            dependencies: [
                "LifeSignalClient", "LifeSignalClientLive", "LifeSignalServer", "LifeSignalCore", "LifeSignalStore", "LifeSignalAPI",
                "LifeSignalDelivery", "LifeSignalFeatures", "ComposableCore", "ComposableCoreTesting", "LifeSignalTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "lifesignalTests",
            dependencies: [
                "lifesignal", "LifeSignalServer", "LifeSignalCore", "LifeSignalStore", "LifeSignalAPI", "LifeSignalTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)
