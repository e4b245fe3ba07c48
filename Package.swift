// swift-tools-version:6.0
import PackageDescription

/// Layers (inward dependencies only; docs/architecture.md follows a push through them):
///   APNSJSON: the one JSON value, parser and writer (pure Swift, knows nothing of APNs).
///   HTTPContract: requests, responses, connection facts, time and `Locked`: what the transport and the
///     application agree on. Knows nothing of APNs.
///   APNSCore, APNSLiveActivity, ActivitySourceParser: pure Swift that knows APNs (APNSCore re-exports
///     HTTPContract; the delivery record, its JSON form, filters and the `DeliveryReader` protocol are in
///     APNSCore/Delivery). APNSMetrics: request and connection counters, pure Swift.
///   APNSPipeline: the pure push pipeline over the core and the Live Activity device.
///   CNative (C headers + shims) → edge modules that alone touch C:
///     APNSTransport (nghttp2/libevent/TLS; sees HTTPContract only, never an APNs type),
///     APNSCrypto (ES256), APNSStore (the `DeliveryStore` protocol, its SQLite and in-memory engines, the record codec),
///     APNSAdmin (the admin API server on evhttp, its router and the inspector files).
///   APNSAdminClient (HTTP/1.1 client of the admin API, over APNSClient's socket) and DeliveryRendering (tables and explanations for
///     a terminal): the command line's side, apart from the server.
///   APNSConformance: graders of other senders (pure, fed the admin API's records).
///   APNSMock: wires core and edges into the server; apns-mock: the command line.
let package = Package(
    name: "apns-mock",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "apns-mock", targets: ["apns-mock"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.0"),
    ],
    targets: [
        .target(
            name: "CNative",
            linkerSettings: [
                .linkedLibrary("nghttp2"), .linkedLibrary("ssl"), .linkedLibrary("crypto"),
                .linkedLibrary("event"), .linkedLibrary("event_openssl"), .linkedLibrary("event_pthreads"),
                .linkedLibrary("sqlite3"),
            ]
        ),
        // The one JSON value, parser and byte writer (pure Swift, no dependencies).
        .target(name: "APNSJSON"),
        .target(name: "HTTPContract"),
        .target(name: "APNSCore", dependencies: ["APNSJSON", "HTTPContract"]),
        .target(name: "APNSMetrics", dependencies: ["HTTPContract"]),
        .target(name: "APNSLiveActivity", dependencies: ["APNSJSON", "APNSCore"]),
        // The push pipeline: rules → fault injection → Live Activity device → strict mode → stream limit → response.
        .target(name: "APNSPipeline", dependencies: ["APNSCore", "APNSLiveActivity"]),
        .target(
            name: "ActivitySourceParser",
            dependencies: [
                "APNSLiveActivity",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        .target(name: "APNSCrypto", dependencies: ["CNative", "APNSCore"]),
        // The nghttp2 plumbing the server and the client share (outgoing bodies, header name-value arrays).
        .target(name: "NGHTTP2Bridge", dependencies: ["CNative"]),
        .target(name: "APNSTransport", dependencies: ["CNative", "HTTPContract", "NGHTTP2Bridge"]),
        .target(name: "APNSStore", dependencies: ["CNative", "APNSJSON", "APNSCore", "HTTPContract"]),
        .target(
            name: "APNSAdmin", dependencies: ["CNative", "APNSJSON", "APNSCore", "APNSStore", "APNSLiveActivity"],
            // Compiled into the binary (PackageResources): a copied binary serves the inspector without a bundle.
            resources: [.embedInCode("Inspector")]
        ),
        .target(name: "APNSAdminClient", dependencies: ["APNSJSON", "APNSCore", "APNSClient"]),
        .target(name: "DeliveryRendering", dependencies: ["APNSCore"]),
        // Appends records under load and prints each id once durable; the kill -9 test in APNSStoreTests runs it.
        .executableTarget(name: "store-crash-writer", dependencies: ["APNSStore", "APNSCore"]),
        .target(
            name: "APNSMock",
            dependencies: [
                "APNSJSON", "APNSCore", "APNSLiveActivity", "APNSPipeline", "ActivitySourceParser", "APNSCrypto",
                "APNSTransport", "APNSStore", "APNSAdmin", "APNSMetrics",
            ],
            // The TEST-ONLY credentials (links to certs/), compiled in: see DefaultCredentials.
            resources: [.embedInCode("TestOnlyCredentials")]
        ),
        // The HTTP/2 client of `apns-mock push` and `conformance server` (nghttp2 + OpenSSL, confined to two files).
        .target(name: "APNSClient", dependencies: ["CNative", "HTTPContract", "APNSJSON", "APNSCore", "APNSCrypto", "NGHTTP2Bridge"]),
        // Graders of other senders (`apns-mock check`, `conformance sender`): pure, fed the admin API's records.
        .target(name: "APNSConformance", dependencies: ["APNSJSON", "APNSCore"]),
        .executableTarget(
            name: "apns-mock",
            dependencies: [
                "APNSMock", "APNSConformance", "APNSClient", "APNSAdminClient", "DeliveryRendering",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // jemalloc in place of glibc's malloc for the whole process (Swift objects, nghttp2, OpenSSL, SQLite), as
            // nghttpd, the bench's baseline, is built: see docs/performance.md, "Allocator".
            // Release: the toolchain's lld with packed relative relocations (DT_RELR, glibc 2.36+: the loader applies
            // ~107k of them from a few KB instead of 2.5 MB of .rela.dyn), and no dynamic export of every symbol of
            // our modules (the static stdlib's link line asks for -export-dynamic: 42k symbols that the loader's
            // lookups and the runtime's dladdr at start-up walk; nothing here looks symbols up by name).
            linkerSettings: [
                .linkedLibrary("jemalloc"),
                .unsafeFlags(
                    ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"],
                    .when(platforms: [.linux], configuration: .release)),
            ]
        ),
        .testTarget(name: "APNSJSONTests", dependencies: ["APNSJSON"]),
        .testTarget(name: "HTTPContractTests", dependencies: ["HTTPContract"]),
        .target(name: "CoreTestSupport", dependencies: ["APNSCore", "APNSJSON"], path: "Tests/CoreTestSupport"),
        .testTarget(name: "APNSCoreTests", dependencies: ["APNSJSON", "APNSCore", "CoreTestSupport"]),
        .testTarget(name: "APNSMetricsTests", dependencies: ["APNSMetrics"]),
        .testTarget(
            name: "APNSLiveActivityTests", dependencies: ["APNSJSON", "APNSLiveActivity", "ActivitySourceParser"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "APNSCryptoTests", dependencies: ["APNSCrypto", "APNSCore", "CoreTestSupport"]),
        .testTarget(name: "APNSTransportTests", dependencies: ["APNSTransport", "HTTPContract", "CNative", "NGHTTP2Bridge"]),
        // Records and durable appends shared by the store, admin and rendering tests and the benchmark.
        .target(name: "DeliveryFixtures", dependencies: ["APNSStore", "APNSCore"], path: "Tests/DeliveryFixtures"),
        .testTarget(name: "APNSStoreTests", dependencies: ["APNSStore", "APNSCore", "DeliveryFixtures"]),
        .testTarget(
            name: "APNSAdminTests",
            dependencies: [
                "APNSAdmin", "APNSAdminClient", "APNSMetrics", "APNSStore", "APNSCore", "DeliveryFixtures", "APNSClient",
            ]
        ),
        .testTarget(name: "DeliveryRenderingTests", dependencies: ["DeliveryRendering", "DeliveryFixtures"]),
        // Store throughput, printed by `make bench` (scripts/bench); not part of `make test`.
        .executableTarget(
            name: "store-throughput", dependencies: ["APNSStore", "APNSCore", "DeliveryFixtures"],
            path: "Benchmarks/StoreThroughput",
            linkerSettings: [.linkedLibrary("jemalloc")]  // the allocator apns-mock runs with
        ),
        .testTarget(
            name: "APNSMockTests",
            dependencies: [
                "APNSMock", "APNSCore", "APNSJSON", "APNSTransport", "APNSPipeline", "APNSLiveActivity", "CoreTestSupport",
            ]
        ),
        .testTarget(name: "APNSPipelineTests", dependencies: ["APNSPipeline", "APNSCore", "APNSLiveActivity"]),
        .testTarget(name: "APNSConformanceTests", dependencies: ["APNSConformance"]),
        .testTarget(name: "APNSClientTests", dependencies: ["APNSClient", "APNSCore", "APNSCrypto", "APNSTransport", "HTTPContract"]),
    ]
)

// libFuzzer targets (`make fuzz`, Fuzz/Targets): only when APNS_MOCK_FUZZ is set. Our modules are then compiled
// with libFuzzer's coverage instrumentation (-sanitize=fuzzer); dependencies (swift-syntax, ArgumentParser) are not,
// so their builds are reused. Ordinary builds never see any of this.
if Context.environment["APNS_MOCK_FUZZ"] != nil {
    let instrumented: Set<String> = [
        "APNSCore", "APNSLiveActivity", "ActivitySourceParser", "APNSCrypto", "APNSTransport", "APNSStore",
        "APNSAdmin", "APNSMock",
    ]
    for target in package.targets where instrumented.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=fuzzer"])]
    }
    package.targets.append(.executableTarget(
        name: "apns-mock-fuzz",
        dependencies: ["APNSMock", "APNSAdmin", "APNSCore", "APNSLiveActivity", "APNSMetrics", "APNSStore", "ActivitySourceParser"],
        path: "Fuzz/Targets", swiftSettings: [.unsafeFlags(["-parse-as-library", "-sanitize=fuzzer"])],
        linkerSettings: [.unsafeFlags(["-sanitize=fuzzer"])]))
    package.products.append(.executable(name: "apns-mock-fuzz", targets: ["apns-mock-fuzz"]))
}
