@testable import APNSCore
import DeliveryFixtures
import APNSJSON
import Foundation
import Testing

@testable import APNSStore

/// The record's one field table gives its served JSON (byte for byte the form clients and stored files have), its
/// read-back, its search text and the SQLite columns.
@Suite struct DeliveryRecordFieldsTests {
    static let full = DeliveryRecord(
        id: 5, receivedAt: Timestamp(nanosecondsSinceEpoch: 1_767_225_600_123_456_789), connectionID: 9,
        clientAddress: "127.0.0.1:50000", environment: .production,
        tls: TLSInfo(alpn: "h2", version: "TLSv1.3", cipher: "TLS_AES_128_GCM_SHA256", serverName: "localhost"),
        method: "POST", path: "/3/device/ab", deviceToken: "ab",
        headers: [HeaderField("apns-topic", "com.example.app")],
        providerToken: ProviderTokenSummary(header: #"{"alg":"ES256"}"#, claims: nil, fingerprint: "00ff"),
        payload: Array(#"{"aps":{}}"#.utf8), status: 400, reason: "BadTopic", apnsID: "id-1", apnsUniqueID: "u-1",
        warnings: [PushWarning(code: "c", message: "m \"q\"")], explanation: "why", ruleID: "topic.syntax",
        strict: true, pushType: "liveactivity", topic: "com.example.app",
        liveActivity: RecordedLiveActivityOutcome(code: "applied", explanation: "ok"), latencyMicroseconds: 42)

    @Test func theServedFormKeepsItsKeysOrderAndValues() {
        let expected = #"{"id":5,"receivedAt":"2026-01-01T00:00:00.123Z","receivedAtNanos":1767225600123456789,"#
            + #""connectionId":9,"clientAddress":"127.0.0.1:50000","environment":"production","#
            + #""tls":{"alpn":"h2","version":"TLSv1.3","cipher":"TLS_AES_128_GCM_SHA256","serverName":"localhost"},"#
            + #""method":"POST","path":"/3/device/ab","deviceToken":"ab","#
            + #""headers":[{"name":"apns-topic","value":"com.example.app"}],"#
            + #""providerToken":{"header":"{\"alg\":\"ES256\"}","fingerprint":"00ff"},"payload":"{\"aps\":{}}","#
            + #""status":400,"reason":"BadTopic","accepted":false,"apnsId":"id-1","apnsUniqueId":"u-1","#
            + #""warnings":[{"code":"c","message":"m \"q\""}],"explanation":"why","ruleId":"topic.syntax","#
            + #""strict":true,"pushType":"liveactivity","topic":"com.example.app","#
            + #""liveActivity":{"code":"applied","explanation":"ok"},"latencyMicroseconds":42}"#
        #expect(String(decoding: Self.full.jsonBytes, as: UTF8.self) == expected)
    }

    @Test func absentOptionalsAreLeftOut() throws {
        let record = DeliveryRecord(
            receivedAt: .zero, connectionID: 1, clientAddress: "a", method: "GET", path: "/", deviceToken: nil,
            headers: [], payload: [], status: 404, reason: nil, apnsID: "x", pushType: nil, topic: nil,
            latencyMicroseconds: 0)
        let keys = try #require(JSONValue.parse(record.jsonBytes)?.keys)
        #expect(keys == [
            "id", "receivedAt", "receivedAtNanos", "connectionId", "clientAddress", "method", "path", "headers",
            "payload", "status", "accepted", "apnsId", "warnings", "strict", "latencyMicroseconds",
        ])
    }

    @Test(arguments: [
        DeliveryRecordFieldsTests.full,
        makeRecord(payload: "binary"),
    ])
    func everyFormReadsBackTheSameRecord(record: DeliveryRecord) throws {
        #expect(try DeliveryRecord(jsonBytes: record.jsonBytes) == record)
        #expect(try JSONDecoder().decode(DeliveryRecord.self, from: JSONEncoder().encode(record)) == record)
    }

    @Test func binaryPayloadsAndLargeConnectionIdsRoundTrip() throws {
        var record = Self.full
        record.payload = [0xFF, 0x00, 0xFE]
        record.connectionID = UInt64.max
        let object = try #require(JSONValue.parse(record.jsonBytes))
        #expect(object["payloadBase64"] == .string("/wD+"))
        #expect(object["payload"] == nil)
        #expect(try DeliveryRecord(jsonBytes: record.jsonBytes) == record)
    }

    @Test(arguments: [
        (#"{"receivedAtNanos":1,"connectionId":1,"clientAddress":"a","method":"GET","path":"/","headers":[],"#
            + #""status":200,"latencyMicroseconds":1}"#, "apnsId"),
        (#"{"receivedAtNanos":"soon"}"#, "receivedAtNanos"),
        (#"{"receivedAtNanos":1,"connectionId":1,"clientAddress":"a","environment":"staging"}"#, "staging"),
        ("[]", "object"),
        ("{", "invalid JSON"),
    ])
    func aBrokenRecordSaysWhatIsWrong(text: String, mentioned: String) {
        #expect {
            try DeliveryRecord(jsonBytes: Array(text.utf8))
        } throws: { error in
            "\(error)".contains(mentioned)
        }
    }

    @Test func searchTextCoversTheSearchedFields() {
        let text = Self.full.searchText
        for part in ["id-1", "/3/device/ab", "127.0.0.1:50000", "u-1", "badtopic", "topic.syntax", "why",
                     "m \"q\"", "applied", "apns-topic: com.example.app", "{\"aps\":{}}", "liveactivity"] {
            #expect(text.contains(part.lowercased()), "\(part)")
        }
        #expect(!text.contains("tls_aes"))
    }

    /// The one-pass ASCII lower-casing gives what `joined(separator:).lowercased()` gives, non-ASCII text included.
    @Test(arguments: [
        [], [""], ["ABC", "Def"], ["apns-topic: COM.Example.App", "{\"Aps\":{}}", ""], ["ÉTÉ", "ascii"],
        ["İstanbul"], ["ASCII", "ΣΑΣ"], ["@[`{Z"],
    ])
    func searchTextIsLowerCasedAsStringDoes(parts: [String]) {
        #expect(DeliveryRecord.joinedLowercased(parts) == parts.joined(separator: "\n").lowercased())
    }

    /// The insert names exactly the table's columns, so rows fit the block tables the writer creates.
    @Test func insertNamesTheSchemasColumns() {
        let created = SQLiteSchema.createTable(named: "deliveries_1").split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasSuffix(",") || $0.hasSuffix("NOT NULL") || $0.hasSuffix("INTEGER") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
            .filter { $0 != "CREATE" }
        // The keys first (a lookup scans them), the record last; no `search` column (schema version 8).
        #expect(created == ["id"] + SQLiteSchema.keyColumns + SQLiteSchema.recordColumns.map(\.name) + ["record"])
        #expect(SQLiteSchema.insertedColumns == created)
        #expect(SQLiteSchema.insert(rowCount: 1, into: "deliveries_1").hasPrefix("INSERT INTO deliveries_1(id, apns_key, "))
    }
}
