@testable import APNSCore
import DeliveryFixtures
import Foundation
import Testing

@testable import APNSStore

/// The `record` blob (`SQLiteStoredRecord`): every shape of record reads back as the same value; anything else
/// (a damaged blob, the JSON an earlier release wrote) is reported as a corrupt record.
@Suite struct SQLiteStoredRecordTests {
    static let records: [(String, DeliveryRecord)] = DeliveryCodecTests.records + [
        ("TLS without ALPN or SNI, certificate with every field, fault, warnings, throttled outcome", DeliveryRecord(
            receivedAt: Timestamp(nanosecondsSinceEpoch: 1_767_225_600_123_456_789), connectionID: 12,
            clientAddress: "[2001:db8::1]:443", environment: .production,
            tls: TLSInfo(alpn: nil, version: "TLSv1.2", cipher: "ECDHE-RSA-AES128-GCM-SHA256", serverName: nil),
            method: "POST", path: "/3/device/abc", deviceToken: "abc",
            headers: [HeaderField("apns-topic", "com.example.app"), HeaderField("x-ünï", "värde \"q\" \\ \n")],
            payload: Array(#"{"aps":{"alert":"ünïcode ✓ 🙂"}}"#.utf8), status: 200, reason: nil,
            apnsID: "not-a-uuid", apnsUniqueID: nil,
            warnings: [
                PushWarning(code: "a", message: "first"), PushWarning(code: "b", message: "second"),
                PushWarning(code: "c", message: ""), PushWarning(code: "d", message: "fourth"),
                PushWarning(code: "e", message: "fifth, past the packer's remembered places"),
            ],
            explanation: "throttled", ruleID: "rule-1", strict: false, pushType: "liveactivity",
            topic: "com.example.app.push-type.liveactivity",
            liveActivity: RecordedLiveActivityOutcome(code: "throttled", explanation: "throttled: budget spent"),
            latencyMicroseconds: 1_234_567,
            injected: InjectedFault(
                faultJSON: #"{"delay":250,"status":200}"#, index: 0, effect: "delay", rulesAnswer: "200"),
            clientCertificate: ClientCertificateSummary(
                subject: "UID=com.example.app,CN=Apple Development IOS Push Services: com.example.app",
                bundleID: "com.example.app", environments: ["development", "production"],
                topics: ["com.example.app", "com.example.app.voip"], trusted: false, problem: "not trusted: self-signed",
                sha256: String(repeating: "ab", count: 32)))),
        ("a 300 KB payload and 40 headers", DeliveryRecord(
            receivedAt: .zero, connectionID: 1, clientAddress: "a", method: "POST", path: "/3/device/00ff",
            deviceToken: "00ff", headers: (0..<40).map { HeaderField("x-header-\($0)", String(repeating: "v", count: $0)) },
            payload: Array(repeating: UInt8(ascii: "x"), count: 300_000), status: 413, reason: "PayloadTooLarge",
            apnsID: "E0C3B1C6-7E29-4F1F-9E9A-2D2F1B1F0A11", pushType: "alert", topic: "t", latencyMicroseconds: 3)),
        ("empty strings everywhere", DeliveryRecord(
            receivedAt: .zero, connectionID: 0, clientAddress: "", environment: .development,
            tls: TLSInfo(alpn: "", version: "", cipher: "", serverName: ""), method: "", path: "", deviceToken: "",
            headers: [HeaderField("", "")], providerToken: ProviderTokenSummary(header: "", claims: "", fingerprint: ""),
            payload: [], status: 200, reason: "", apnsID: "", apnsUniqueID: "", warnings: [PushWarning(code: "", message: "")],
            explanation: "", ruleID: "", pushType: "", topic: "", liveActivity: RecordedLiveActivityOutcome(code: "", explanation: ""),
            latencyMicroseconds: 0,
            injected: InjectedFault(faultJSON: "{}", index: -1, effect: "", rulesAnswer: ""),
            clientCertificate: ClientCertificateSummary(
                subject: "", bundleID: "", environments: [""], topics: [""], trusted: true, problem: "", sha256: ""))),
        ("fixture Live Activity update", makeRecord(pushType: "liveactivity", liveActivityCode: "ignoredOlderTimestamp")),
    ]

    /// The blob the store writes, and the record's JSON.
    static func forms(_ record: DeliveryRecord) -> (packed: [UInt8], json: [UInt8]) {
        (EncodedDelivery(record, id: 0).storedRecord, record.withID(0).jsonBytes)
    }

    /// By index: a record's description (a 300 KB payload) would fill the test log.
    @Test(arguments: records.indices)
    func theStoredBlobReadsBackAsTheSameRecord(_ index: Int) throws {
        let (name, record) = Self.records[index]
        let (packed, json) = Self.forms(record)
        #expect(packed.first == DeliveryCodec.formatTag, "\(name)")
        let receivedAt = record.receivedAt.nanosecondsSinceEpoch
        let fromPacked = try SQLiteStoredRecord.record(packed, id: 5, receivedAt: receivedAt)
        #expect(fromPacked == record.withID(5), "\(name)")
        #expect(packed.count < json.count, "\(name): \(packed.count) packed bytes, \(json.count) of JSON")
    }

    /// The count and FNV-1a hash of each sample record's stored blob as `DeliveryCodec` writes it: the bytes on
    /// disk stay the same whatever the codec's code does. The fixture records (`makeRecord`) hold fresh UUIDs: their
    /// counts only. (A change here needs a new `SQLiteSchema.version`.)
    static let storedBlobs: [(count: Int, hash: UInt64?)] = [
        (713, 0x2063_49CC_12A3_38A0), (435, nil), (65, 0x0B57_8210_3018_ADB2), (1639, 0x5ADF_0EEA_9815_0A8D),
        (486, 0xEC39_5706_C101_F29A), (128, 0xD41F_C72E_D020_A3C1), (683, 0x9480_EE2B_0BBF_AAC7),
        (301_472, 0xBC69_12B8_C85F_EF6E), (88, 0x7B14_EA6B_E791_A66F), (513, nil),
    ]

    @Test(arguments: records.indices)
    func everyRecordIsStoredAsTheSameBytesAsBefore(_ index: Int) {
        let packed = Self.forms(Self.records[index].1).packed
        let expected = Self.storedBlobs[index]
        #expect(packed.count == expected.count, "\(Self.records[index].0)")
        if let hash = expected.hash {
            #expect(
                packed.reduce(0xCBF2_9CE4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 } == hash,
                "\(Self.records[index].0)")
        }
    }

    @Test func aLiveActivityUpdatePacksToLessThanHalfItsJSON() {
        let (packed, json) = Self.forms(DeliveryCodecTests.liveActivity)
        #expect(packed.count * 2 < json.count, "\(packed.count) packed bytes, \(json.count) of JSON")
    }

    @Test func aDamagedPackedRecordIsReportedAsCorrupt() throws {
        let (packed, _) = Self.forms(DeliveryCodecTests.liveActivity)
        let json = DeliveryCodecTests.liveActivity.withID(0).jsonBytes
        for damaged in [Array(packed.dropLast()), packed + [0], [DeliveryCodec.formatTag], json] {
            #expect(throws: DeliveryStoreError.corruptRecord(id: 3, detail: "not a packed record")) {
                try SQLiteStoredRecord.record(damaged, id: 3, receivedAt: 0)
            }
        }
    }
}
