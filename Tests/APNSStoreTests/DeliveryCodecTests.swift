@testable import APNSCore
import DeliveryFixtures
import Testing

@testable import APNSStore

/// The one binary form of a record (both engines' rows) gives back exactly the record it was made from, for every
/// shape of record, and bytes that are not a record read as nil.
@Suite struct DeliveryCodecTests {
    static let token = String(repeating: "0123456789abcdef", count: 10)

    static let liveActivity = DeliveryRecord(
        receivedAt: Timestamp(nanosecondsSinceEpoch: 1_795_426_496_280_755_712), connectionID: 3,
        clientAddress: "127.0.0.1:60408", environment: .production,
        tls: TLSInfo(alpn: "h2", version: "TLSv1.3", cipher: "TLS_AES_256_GCM_SHA384", serverName: nil),
        method: "POST", path: "/3/device/\(token)", deviceToken: token,
        headers: [
            HeaderField(":method", "POST"), HeaderField(":path", "/3/device/\(token)"),
            HeaderField("apns-id", "54A6AD69-5BF5-4984-A811-1CFEFFCB3841"),
            HeaderField("apns-topic", "com.example.app.push-type.liveactivity"), HeaderField("apns-priority", "5"),
            HeaderField("x-duplicate", "a"), HeaderField("x-duplicate", "a"), HeaderField("empty", ""),
        ],
        providerToken: ProviderTokenSummary(header: nil, claims: #"{"iss":"T"}"#, fingerprint: "b8d219bb793891f3"),
        payload: Array(#"{"aps":{"event":"update"}}"#.utf8), status: 200, reason: nil,
        apnsID: "54A6AD69-5BF5-4984-A811-1CFEFFCB3841", apnsUniqueID: "3a41b321-8c38-403e-b0b8-9df926a276ae",
        warnings: [PushWarning(code: "la-content-state-unchecked", message: "content-state was not checked")],
        strict: true, pushType: "liveactivity", topic: "com.example.app.push-type.liveactivity",
        liveActivity: RecordedLiveActivityOutcome(code: "applied", explanation: "applied: content-state updated"),
        latencyMicroseconds: 26)

    static let records: [(String, DeliveryRecord)] = [
        ("Live Activity update, every optional set", liveActivity),
        ("fixture alert", makeRecord(token: "a1b2c3", receivedAt: .zero)),
        ("rejected, no token, non-UTF-8 payload, negative latency", DeliveryRecord(
            receivedAt: Timestamp(nanosecondsSinceEpoch: -5), connectionID: UInt64.max, clientAddress: "",
            method: "GET", path: "/", deviceToken: nil, headers: [], payload: [0xFF, 0x00, 0xC3],
            status: 405, reason: "MethodNotAllowed", apnsID: "x", pushType: nil, topic: nil,
            latencyMicroseconds: -1)),
        ("no answer (status 0), non-ASCII texts", DeliveryRecord(
            receivedAt: .zero, connectionID: 0, clientAddress: "[::1]:1", method: "POST", path: "/3/device/ü",
            deviceToken: "ü", headers: [HeaderField("x-name", "ünïcode ✓")], payload: [], status: 0, reason: nil,
            apnsID: "Ä-id", explanation: String(repeating: "long ", count: 300), pushType: "alert", topic: "t",
            latencyMicroseconds: Int64.max,
            injected: InjectedFault(faultJSON: #"{"status":500}"#, index: 2, effect: "answer", rulesAnswer: "200"),
            clientCertificate: ClientCertificateSummary(
                subject: "UID=a", bundleID: nil, environments: [], topics: ["a"], trusted: true, problem: nil,
                sha256: "ab"))),
        ("upper-case hex token; a path that does not repeat it", DeliveryRecord(
            receivedAt: .zero, connectionID: 1, clientAddress: "a", method: "POST",
            path: "/3/device/\(token)", deviceToken: token.uppercased(),
            headers: [HeaderField(":path", "/3/device/x")], payload: [], status: 400, reason: "BadDeviceToken",
            apnsID: "3A41B321-8C38-403E-B0B8-9DF926A276AE", apnsUniqueID: "3a41b321-8c38-403e-b0b8-9df926a276ae0",
            pushType: "alert", topic: "t", latencyMicroseconds: 0)),
        ("mixed-case and odd-length hex kept as text", DeliveryRecord(
            receivedAt: .zero, connectionID: 1, clientAddress: "a", method: "POST",
            path: "/3/device/0123456789abcdefABCDEF", deviceToken: "0123456789abcdefABCDEF",
            headers: [HeaderField(":path", "/3/device/0123456789abcdefABCDEF")], payload: [], status: 200,
            reason: nil, apnsID: "3a41b321-8C38-403e-b0b8-9df926a276ae", apnsUniqueID: "0123456789abcdef0",
            pushType: "alert", topic: "t", latencyMicroseconds: 0)),
    ]

    static func encode(_ record: DeliveryRecord) -> [UInt8] {
        var bytes: [UInt8] = []
        DeliveryCodec.encode(record, into: &bytes)
        return bytes
    }

    @Test(arguments: records)
    func readsBackTheSameRecord(_ name: String, _ record: DeliveryRecord) throws {
        let bytes = Self.encode(record)
        #expect(DeliveryCodec.decode(bytes[...], id: 9, receivedAt: record.receivedAt) == record.withID(9), "\(name)")
        #expect(DeliveryCodec.hasAPNsID(bytes[...], record.apnsID.lowercased()), "\(name)")
        #expect(!DeliveryCodec.hasAPNsID(bytes[...], record.apnsID + "0"), "\(name)")
        // Behind other bytes (the SQLite blob's format tag): read from the slice's own start.
        let behind = [DeliveryCodec.formatTag] + bytes
        #expect(DeliveryCodec.decode(behind.dropFirst(), id: 9, receivedAt: record.receivedAt) == record.withID(9))
    }

    /// A device push's path and its `:path` header are one byte each, not the ~170 bytes they repeat.
    @Test func thePathIsWrittenOnce() {
        let bytes = Self.encode(Self.liveActivity)
        var other = Self.liveActivity
        other.path += "?"
        other.headers[1] = HeaderField(":path", other.path + "?")
        #expect(Self.encode(other).count - bytes.count >= 2 * Self.liveActivity.path.utf8.count)
    }

    /// Every cut of a record, and any byte after it, is not a record.
    @Test(arguments: records)
    func truncatedOrExtendedBytesReadAsNil(_ name: String, _ record: DeliveryRecord) {
        let bytes = Self.encode(record)
        for end in 0..<bytes.count {
            #expect(DeliveryCodec.decode(bytes[..<end], id: 1, receivedAt: .zero) == nil, "\(name) cut at \(end)")
        }
        #expect(DeliveryCodec.decode((bytes + [0])[...], id: 1, receivedAt: .zero) == nil, "\(name)")
    }

    /// Including strings in the compact forms (tags 3, 4 and 5) that files of schema version 6 could hold: this
    /// codec does not read them (such a file is moved aside, `SchemaVersionTests`).
    @Test(arguments: [
        [], [1, 2, 3], [2, 0xFF], [9, 200], [3, 0, 0], [4, 2, 0, 0xAB], [5, 0] + [UInt8](repeating: 0, count: 16),
    ] as [[UInt8]])
    func bytesThatAreNoRecordReadAsNil(_ bytes: [UInt8]) {
        #expect(DeliveryCodec.decode(bytes[...], id: 1, receivedAt: .zero) == nil)
    }
}
