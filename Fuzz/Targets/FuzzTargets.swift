// libFuzzer targets for every parser that reads untrusted bytes, through the narrowest public entry point of each
// (so they survive changes to the parsers behind them). One binary; FUZZ_TARGET picks the target:
//   payload                push bodies through the APNs rules (`PushValidator.evaluate`)
//   live-activity-payload  Live Activity payloads through `LiveActivityPayloadChecker.check` with a schema
//   token                  provider tokens (`ProviderToken(parsing:)`, `JWTBase64.decode`, the authenticator)
//   admin-query            admin API paths and query strings (`AdminRouter.route`)
//   admin-body             admin API JSON bodies (`POST /api/config/{tokens,keys,faults}`)
//   config                 configuration files (`MockConfiguration.decode`)
//   activity-source        Swift `ActivityAttributes` sources (`ActivitySourceParser.parse(sources:)`)
// Built only by `make fuzz` (APNS_MOCK_FUZZ=1, -sanitize=fuzzer); seeds in Fuzz/Corpus/<target>.
@testable import APNSMock
@testable import APNSCore
import APNSStore
import ActivitySourceParser
import Foundation

enum FuzzTarget: String, CaseIterable {
    case payload, liveActivityPayload = "live-activity-payload", token, adminQuery = "admin-query"
    case adminBody = "admin-body", config, activitySource = "activity-source"
}

private let selected: FuzzTarget = {
    guard let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"], let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("set FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }
    return target
}()

private let now = Timestamp(secondsSinceEpoch: 1_800_000_000)
private let device = String(repeating: "a1", count: 32)

private let validator = PushValidator(configuration: RuleConfiguration(), tokens: DeviceTokenRegistry())

private let schemas: [ActivitySchema] = ActivitySourceParser.parse(sources: [(path: "Fuzz.swift", text: """
    import ActivityKit
    struct DeliveryAttributes: ActivityAttributes {
        struct ContentState: Codable, Hashable {
            var phase: Phase
            var progress: Double = 0
            var eta: Date
            var courier: String?
            var stops: [Int]
        }
        enum Phase: String, Codable { case preparing, onTheWay, delivered }
        var orderID: String
    }
    """)]).schemas

private struct RejectingVerifier: ES256Verifier {
    var publicKeyFingerprint: String { "fuzz" }
    func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool { signature.count == 64 }
}

private let registry: SigningKeyRegistry = {
    let registry = SigningKeyRegistry()
    registry.register(try! SigningKey(teamID: "TEAM123456", keyID: "ABC123DEFG", verifier: RejectingVerifier()))
    try! registry.addBundleID("com.example.app", toTeam: "TEAM123456")
    return registry
}()
private let tokenCache = VerifiedTokenCache(capacity: 64)

private func makeBackend() -> MockAdminBackend {
    MockAdminBackend(
        tokens: DeviceTokenRegistry(), keys: SigningKeyRegistry(), scripted: ScriptedAnswers(), liveActivities: nil,
        metrics: Metrics(), clock: FixedClock(), summary: { [:] })
}

private let store = InMemoryDeliveryStore()
private let router = AdminRouter(
    store: store, backend: makeBackend(), bearerToken: nil, inspector: InspectorFiles(directory: URL(fileURLWithPath: "/nonexistent")))

private struct FixedClock: WallClock {
    func now() -> Timestamp { Timestamp(secondsSinceEpoch: 1_800_000_000) }
}

/// SwiftPM's debug builds link an executable's entry point as `<module>_main`; libFuzzer's driver is started from
/// there (`LLVMFuzzerRunDriver`), so the same file works in debug and release builds.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("apns_mock_fuzz_main")
package func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}

@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    switch selected {
    case .payload:
        for (topic, pushType) in [("com.example.app", "alert"), ("com.example.app.push-type.liveactivity", "liveactivity"),
                                  ("com.example.app", "background")] {
            let request = HTTPRequest(
                method: "POST", path: "/3/device/\(device)", authority: "api.sandbox.push.apple.com",
                headers: [HeaderField("apns-topic", topic), HeaderField("apns-push-type", pushType)], body: bytes)
            _ = validator.evaluate(request, authenticator: nil, now: now)
        }
    case .liveActivityPayload:
        _ = LiveActivityPayloadChecker.check(payload: bytes, context: LiveActivityCheckContext(now: now, schemas: schemas))
        _ = LiveActivityPayloadChecker.check(
            payload: bytes, context: LiveActivityCheckContext(now: now, schemas: schemas, activityAttributesType: "DeliveryAttributes"))
    case .token:
        _ = try? ProviderToken(parsing: text[...])
        _ = JWTBase64.decode(text[...])
        let authenticator = ProviderTokenAuthenticator(registry: registry, cache: tokenCache)
        for value in [text, "bearer " + text] {
            _ = authenticator.authenticate(AuthRequest(
                authorization: [value], topic: "com.example.app", pushType: .alert, environment: .development, now: now))
        }
    case .adminQuery:
        for prefix in ["/api/deliveries?", "/api/deliveries/wait?timeout=0&", "/api/deliveries/export?", "/api/", "/"] {
            _ = router.route(AdminRequest(method: "GET", uri: prefix + text))
        }
    case .adminBody:
        let backend = makeBackend()
        for section in ["tokens", "keys", "faults"] {
            _ = backend.updateConfig(section: section, body: Data(bytes))
        }
    case .config:
        if let configuration = try? MockConfiguration.decode(Data(bytes), source: "fuzz.json") {
            _ = try? configuration.limits.validate()
            _ = try? MockServer.ruleConfiguration(configuration)
        }
    case .activitySource:
        _ = ActivitySourceParser.parse(sources: [(path: "Fuzz.swift", text: text)])
    }
    return 0
}
