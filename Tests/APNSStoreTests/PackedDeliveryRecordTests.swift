import APNSCore
import DeliveryFixtures
import Testing

@testable import APNSStore

/// The in-memory store's packed form gives back exactly the record it was made from, for every shape of record;
/// full pools fall back to writing strings out (or, for whole values, to keeping the record as it is).
@Suite struct PackedDeliveryRecordTests {
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
        liveActivity: LiveActivityOutcome(code: "applied", explanation: "applied: content-state updated"),
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

    @Test(arguments: records)
    func readsBackTheSameRecord(_ name: String, _ record: DeliveryRecord) throws {
        var packer = DeliveryPacker()
        let packed = packer.pack(record)
        let bytes = try #require(packed, "\(name)")
        let back = PackedDeliveryRecord.unpack(bytes, id: 9, receivedAt: record.receivedAt, pools: packer.pools)
        #expect(back == record.withID(9), "\(name)")
        #expect(PackedDeliveryRecord.hasAPNsID(bytes, record.apnsID.lowercased()), "\(name)")
        #expect(!PackedDeliveryRecord.hasAPNsID(bytes, record.apnsID + "0"), "\(name)")
    }

    @Test func tokensUUIDsAndRepeatsArePacked() throws {
        var packer = DeliveryPacker()
        let packed = packer.pack(Self.liveActivity)
        let bytes = try #require(packed)
        // The 160-digit token as 80 bytes, the path and `:path` as one byte each (written out, the three would be
        // over 500 bytes), each UUID as 17 bytes.
        #expect(bytes.count < 250)
        let pooled = packer.pools.strings.count
        let again = packer.pack(Self.liveActivity)
        let second = try #require(again)
        #expect(second.count == bytes.count - Self.liveActivity.payload.count, "the repeated payload is pooled")
        #expect(packer.pools.strings.count == pooled, "a second record with the same texts adds nothing to the pools")
    }

    /// Hex tokens of every even length from 16 to 80 digits, in either case, are packed two digits a byte and read
    /// back the same; a non-hex byte or a letter of the other case at the start, at a word's edge or in the last
    /// digits keeps the token as text (the digits are packed eight at a time, the last two to six padded).
    @Test func hexTokensOfEveryLengthReadBack() throws {
        var packer = DeliveryPacker()
        for count in stride(from: 16, through: 80, by: 2) {
            let digits = String(String(repeating: "0123456789abcdef", count: 5).prefix(count))
            var tokens = [(digits, true), (digits.uppercased(), true)]
            for position in Set([0, 7, 8, count - 5, count - 2, count - 1]) {
                for replacement in ["g", "A", "/", ":", "`", "\u{7F}"] {
                    var bytes = Array(digits.utf8)
                    bytes[position] = UInt8(ascii: Unicode.Scalar(replacement)!)
                    tokens.append((String(decoding: bytes, as: UTF8.self), false))
                }
            }
            for (token, packsAsHex) in tokens {
                let record = DeliveryRecord(
                    receivedAt: .zero, connectionID: 1, clientAddress: "a", method: "POST", path: "/3/device/x",
                    deviceToken: token, headers: [], payload: [], status: 200, reason: nil, apnsID: "x",
                    pushType: "alert", topic: "t", latencyMicroseconds: 0)
                let packed = packer.pack(record)
                let bytes = try #require(packed, "\(token)")
                let back = PackedDeliveryRecord.unpack(bytes, id: 1, receivedAt: .zero, pools: packer.pools)
                #expect(back == record.withID(1), "\(token)")
                var tokenless = record
                tokenless.deviceToken = nil
                let packedWithoutToken = packer.pack(tokenless)
                let withoutToken = try #require(packedWithoutToken)
                // Tag, count and case byte, then two digits a byte; or tag, count and the text (an absent token: a tag).
                let tokenBytes = bytes.count - withoutToken.count + 1
                #expect(tokenBytes == (packsAsHex ? count / 2 + 3 : count + 2), "\(token)")
            }
        }
    }

    @Test func recordsOneAfterAnotherReadBackWhateverTheyShare() throws {
        var packer = DeliveryPacker()
        let packed = Self.records.map { _, record in packer.pack(record) }
        for ((name, record), bytes) in zip(Self.records, packed) {
            let bytes = try #require(bytes, "\(name)")
            let back = PackedDeliveryRecord.unpack(bytes, id: 2, receivedAt: record.receivedAt, pools: packer.pools)
            #expect(back == record.withID(2), "\(name)")
        }
    }

    @Test func fullStringPoolWritesTextsOut() throws {
        var packer = DeliveryPacker(pools: DeliveryInternPools(strings: InternPool(capacity: 0)))
        let packed = packer.pack(Self.liveActivity)
        let bytes = try #require(packed)
        #expect(PackedDeliveryRecord.unpack(
            bytes, id: 1, receivedAt: Self.liveActivity.receivedAt, pools: packer.pools) == Self.liveActivity.withID(1))
    }

    @Test func fullValuePoolPacksNothing() {
        var packer = DeliveryPacker(pools: DeliveryInternPools(tls: InternPool(capacity: 0)))
        #expect(packer.pack(Self.liveActivity) == nil)
    }

    @Test(arguments: [[], [1, 2, 3], [2, 0xFF], [9, 200]] as [[UInt8]])
    func bytesThatAreNoRecordReadAsNil(_ bytes: [UInt8]) {
        #expect(PackedDeliveryRecord.unpack(bytes, id: 1, receivedAt: .zero, pools: DeliveryInternPools()) == nil)
    }
}
