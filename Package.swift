// swift-tools-version:6.0
import PackageDescription

/// Modules, inward dependencies only (docs/architecture.md follows a push through them):
///   Vocabulary: APNSJSON (the one JSON value, parser and writer); HTTPContract (requests, responses, connection
///     facts and the threads and locks the transport and the application share; knows nothing of APNs).
///   Pure core: APNSCore (what APNs knows and decides: tokens, reasons, rules, provider-token authentication,
///     fault specs, the Live Activity device, the push pipeline, the delivery record and its JSON form);
///     ActivitySourceParser (reads ActivityAttributes from Swift sources).
///   I/O edges, the only modules that touch C (CNative: headers and shims): HTTP2 (the nghttp2 + libevent + TLS server
///     and the nghttp2 + OpenSSL client; never sees an APNs type), APNSCrypto (ES256 on OpenSSL),
///     APNSStore (SQLite and in-memory records).
///   Application: APNSMock (the composition root: the server, its admin API and inspector, metrics);
///     APNSConformance (graders of other senders, pure); APNSCommandLine (the push client, the admin client and
///     terminal rendering); apns-mock (the commands).
/// Access: the modules a push crosses (vocabulary, core, I/O edges) declare their API `public`, the application
/// modules `package`. Swift's cross-module optimisation inlines and specialises only `public` declarations (an
/// `@inlinable package` member of a `package` type is called, not inlined), and with `package` everywhere a push
/// costs ~3.5k instructions more (scripts/bench --check).
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
        .target(name: "APNSJSON"),
        .target(name: "HTTPContract"),
        .target(name: "APNSCore", dependencies: ["APNSJSON", "HTTPContract"]),
        .target(
            name: "ActivitySourceParser",
            dependencies: [
                "APNSCore",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        .target(name: "APNSCrypto", dependencies: ["CNative", "APNSCore"]),
        .target(name: "HTTP2", dependencies: ["CNative", "HTTPContract"]),
        .target(name: "APNSStore", dependencies: ["CNative", "APNSJSON", "APNSCore", "HTTPContract"]),
        // Appends records under load and prints each id once durable; the kill -9 test in APNSStoreTests runs it.
        .executableTarget(name: "store-crash-writer", dependencies: ["APNSStore", "APNSCore"]),
        .target(
            name: "APNSMock",
            dependencies: [
                "APNSJSON", "APNSCore", "ActivitySourceParser", "APNSCrypto", "HTTP2", "APNSStore", "CNative",
            ],
            // Compiled into the binary (PackageResources): the inspector's files, and the TEST-ONLY credentials
            // (links to certs/, see DefaultCredentials), so a copied binary needs no bundle.
            resources: [.embedInCode("Admin/Inspector"), .embedInCode("TestOnlyCredentials")]
        ),
        .target(name: "APNSConformance", dependencies: ["APNSJSON", "APNSCore"]),
        .target(
            name: "APNSCommandLine",
            dependencies: ["HTTPContract", "APNSJSON", "APNSCore", "APNSCrypto", "HTTP2"]
        ),
        .executableTarget(
            name: "apns-mock",
            dependencies: [
                "APNSMock", "APNSConformance", "APNSCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // jemalloc in place of glibc's malloc for the whole process (Swift objects, nghttp2, OpenSSL, SQLite), as
            // nghttpd, the bench's baseline, is built: see docs/performance.md.
            // Release: the toolchain's lld with packed relative relocations (DT_RELR) and no dynamic export of every
            // symbol of our modules: see docs/performance.md.
            linkerSettings: [
                .linkedLibrary("jemalloc"),
                .unsafeFlags(
                    ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"],
                    .when(platforms: [.linux], configuration: .release)),
            ]
        ),
        .target(name: "CoreTestSupport", dependencies: ["APNSCore", "APNSJSON"], path: "Tests/CoreTestSupport"),
        // Records and durable appends shared by the store, admin and rendering tests and the benchmark.
        .target(name: "DeliveryFixtures", dependencies: ["APNSStore", "APNSCore"], path: "Tests/DeliveryFixtures"),
        .testTarget(name: "APNSJSONTests", dependencies: ["APNSJSON"]),
        .testTarget(name: "HTTPContractTests", dependencies: ["HTTPContract"]),
        .testTarget(
            name: "APNSCoreTests", dependencies: ["APNSJSON", "APNSCore", "ActivitySourceParser", "CoreTestSupport"],
            exclude: ["LiveActivity/Fixtures"]
        ),
        .testTarget(name: "APNSCryptoTests", dependencies: ["APNSCrypto", "APNSCore", "CoreTestSupport"]),
        .testTarget(name: "HTTP2Tests", dependencies: ["HTTP2", "HTTPContract", "CNative"]),
        .testTarget(name: "APNSStoreTests", dependencies: ["APNSStore", "APNSCore", "DeliveryFixtures"]),
        .testTarget(
            name: "APNSMockTests",
            dependencies: [
                "APNSMock", "APNSCommandLine", "APNSCore", "APNSJSON", "HTTP2", "APNSStore", "CoreTestSupport",
                "DeliveryFixtures",
            ]
        ),
        .testTarget(name: "APNSConformanceTests", dependencies: ["APNSConformance"]),
        .testTarget(
            name: "APNSCommandLineTests",
            dependencies: ["APNSCommandLine", "APNSCore", "APNSCrypto", "HTTP2", "HTTPContract", "DeliveryFixtures"]
        ),
        // Store throughput, printed by `make bench` (scripts/bench); not part of `make test`.
        .executableTarget(
            name: "store-throughput", dependencies: ["APNSStore", "APNSCore", "DeliveryFixtures"],
            path: "Benchmarks/StoreThroughput",
            linkerSettings: [.linkedLibrary("jemalloc")]  // the allocator apns-mock runs with
        ),
    ]
)

// libFuzzer targets (`make fuzz`, Fuzz/Targets): only when APNS_MOCK_FUZZ is set. Our modules are then compiled
// with libFuzzer's coverage instrumentation (-sanitize=fuzzer); dependencies (swift-syntax, ArgumentParser) are not,
// so their builds are reused. Ordinary builds never see any of this.
if Context.environment["APNS_MOCK_FUZZ"] != nil {
    let instrumented: Set<String> = [
        "APNSCore", "ActivitySourceParser", "APNSCrypto", "HTTP2", "APNSStore", "APNSMock",
    ]
    for target in package.targets where instrumented.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=fuzzer"])]
    }
    package.targets.append(.executableTarget(
        name: "apns-mock-fuzz",
        dependencies: ["APNSMock", "APNSCore", "APNSStore", "ActivitySourceParser"],
        path: "Fuzz/Targets", swiftSettings: [.unsafeFlags(["-parse-as-library", "-sanitize=fuzzer"])],
        linkerSettings: [.unsafeFlags(["-sanitize=fuzzer"])]))
    package.products.append(.executable(name: "apns-mock-fuzz", targets: ["apns-mock-fuzz"]))
}
