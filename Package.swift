// swift-tools-version:6.0
import PackageDescription

/// Layers (inward dependencies only):
///   CNative (C headers + OpenSSL macro shims)
///     → edge modules that alone touch C: APNSTransport (nghttp2/libevent/TLS), APNSCrypto (ES256),
///       APNSStore (SQLite), APNSAdmin (evhttp)
///   APNSCore, APNSLiveActivity, ActivitySourceParser: pure Swift that knows APNs
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
        .target(name: "APNSCore"),
        .target(name: "APNSLiveActivity", dependencies: ["APNSCore"]),
        .target(
            name: "ActivitySourceParser",
            dependencies: [
                "APNSLiveActivity",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        .target(name: "APNSCrypto", dependencies: ["CNative", "APNSCore"]),
        .target(name: "APNSTransport", dependencies: ["CNative", "APNSCore"]),
        .target(name: "APNSStore", dependencies: ["CNative", "APNSCore"]),
        .target(
            name: "APNSAdmin", dependencies: ["CNative", "APNSCore", "APNSStore", "APNSLiveActivity"],
            resources: [.copy("Inspector")]
        ),
        // Appends records under load and prints each id once durable; the kill -9 test in APNSStoreTests runs it.
        .executableTarget(name: "store-crash-writer", dependencies: ["APNSStore", "APNSCore"]),
        .target(
            name: "APNSMock",
            dependencies: [
                "APNSCore", "APNSLiveActivity", "ActivitySourceParser", "APNSCrypto",
                "APNSTransport", "APNSStore", "APNSAdmin",
            ]
        ),
        // The HTTP/2 client of `apns-mock push` and `conformance server` (nghttp2 + OpenSSL, confined to two files).
        .target(name: "APNSClient", dependencies: ["CNative", "APNSCore", "APNSCrypto"]),
        // Graders of other senders (`apns-mock check`, `conformance sender`): pure, fed the admin API's records.
        .target(name: "APNSConformance"),
        .executableTarget(
            name: "apns-mock",
            dependencies: ["APNSMock", "APNSConformance", "APNSClient", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "APNSCoreTests", dependencies: ["APNSCore"]),
        .testTarget(
            name: "APNSLiveActivityTests", dependencies: ["APNSLiveActivity", "ActivitySourceParser"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "APNSCryptoTests", dependencies: ["APNSCrypto", "APNSCore"]),
        .testTarget(name: "APNSTransportTests", dependencies: ["APNSTransport", "APNSCore", "CNative"]),
        .testTarget(name: "APNSStoreTests", dependencies: ["APNSStore", "APNSAdmin", "APNSCore"]),
        .testTarget(name: "APNSMockTests", dependencies: ["APNSMock", "APNSCore"]),
        .testTarget(name: "APNSConformanceTests", dependencies: ["APNSConformance"]),
        .testTarget(name: "APNSClientTests", dependencies: ["APNSClient", "APNSCore", "APNSCrypto", "APNSTransport"]),
    ]
)
