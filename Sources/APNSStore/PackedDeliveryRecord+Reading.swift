import APNSCore
import Foundation

extension PackedDeliveryRecord {
    /// The record `DeliveryPacker` wrote into `bytes` (bytes the caller keeps alive: the in-memory store's arena),
    /// with `id` and `receivedAt`; nil if the bytes are not such a record. `pools`: those the numbers refer to, nil
    /// for a self-contained record (`DeliveryPacker.selfContained()`).
    static func unpack(
        _ bytes: UnsafeBufferPointer<UInt8>, id: Int64, receivedAt: Timestamp, pools: DeliveryInternPools?
    ) -> DeliveryRecord? {
        var reader = PackedRecordReader(bytes: bytes, pools: pools)
        guard let apnsID = reader.presentString(),
              let connectionID = reader.varint(),
              let clientAddress = reader.presentString(),
              let environmentNumber = reader.byte(),
              let tls = reader.value(pools?.tls, writtenOut: { $0.tls() }),
              let injected = reader.value(pools?.faults, writtenOut: { $0.fault() }),
              let clientCertificate = reader.value(pools?.certificates, writtenOut: { $0.certificate() }),
              let method = reader.presentString(),
              let deviceToken = reader.deviceToken(),
              let path = reader.path(),
              let headerCount = reader.varint(), headerCount <= UInt64(bytes.count)
        else { return nil }
        var headers: [HeaderField] = []
        headers.reserveCapacity(Int(headerCount))
        for _ in 0..<headerCount {
            guard let name = reader.presentString(), let value = reader.presentString() else { return nil }
            headers.append(HeaderField(name, value))
        }
        var providerToken: ProviderTokenSummary?
        switch reader.byte() {
        case 0: break
        case 1:
            guard let header = reader.string(), let claims = reader.string(), let fingerprint = reader.presentString()
            else { return nil }
            providerToken = ProviderTokenSummary(header: header, claims: claims, fingerprint: fingerprint)
        default: return nil
        }
        guard let payload = reader.payload(),
              let status = reader.signed(),
              let reason = reader.string(),
              let apnsUniqueID = reader.string(),
              let warningCount = reader.varint(), warningCount <= UInt64(bytes.count)
        else { return nil }
        var warnings: [PushWarning] = []
        warnings.reserveCapacity(Int(warningCount))
        for _ in 0..<warningCount {
            guard let code = reader.presentString(), let message = reader.presentString() else { return nil }
            warnings.append(PushWarning(code: code, message: message))
        }
        guard let explanation = reader.string(),
              let ruleID = reader.string(),
              let strict = reader.byte(),
              let pushType = reader.string(),
              let topic = reader.string()
        else { return nil }
        var liveActivity: LiveActivityOutcome?
        switch reader.byte() {
        case 0: break
        case 1:
            guard let code = reader.presentString(), let text = reader.presentString() else { return nil }
            liveActivity = LiveActivityOutcome(code: code, explanation: text)
        default: return nil
        }
        guard let latency = reader.signed(), reader.atEnd else { return nil }
        let environments = APNsEnvironment.allCases
        guard Int(environmentNumber) <= environments.count else { return nil }
        let environment = environmentNumber == 0 ? nil : environments[Int(environmentNumber) - 1]
        return DeliveryRecord(
            id: id, receivedAt: receivedAt, connectionID: connectionID, clientAddress: clientAddress,
            environment: environment, tls: tls, method: method, path: path, deviceToken: deviceToken,
            headers: headers, providerToken: providerToken, payload: payload, status: Int(status), reason: reason,
            apnsID: apnsID, apnsUniqueID: apnsUniqueID, warnings: warnings, explanation: explanation, ruleID: ruleID,
            strict: strict != 0, pushType: pushType, topic: topic, liveActivity: liveActivity,
            latencyMicroseconds: latency, injected: injected, clientCertificate: clientCertificate)
    }

    /// Whether the packed record's `apns-id` equals `apnsID` as `caseInsensitiveCompare` has it, without decoding
    /// the rest (ASCII bytes compared directly; anything else through Foundation).
    static func hasAPNsID(_ bytes: UnsafeBufferPointer<UInt8>, _ apnsID: String) -> Bool {
        var reader = PackedRecordReader(bytes: bytes, pools: nil)
        guard var stored = reader.presentString() else { return false }
        var wanted = apnsID
        return wanted.withUTF8 { wanted in
            stored.withUTF8 { stored in
                if wanted.contains(where: { $0 >= 0x80 }) || stored.contains(where: { $0 >= 0x80 }) {
                    return String(decoding: stored, as: UTF8.self).caseInsensitiveCompare(apnsID) == .orderedSame
                }
                return wanted.count == stored.count && !zip(wanted, stored).contains { lowered($0) != lowered($1) }
            }
        }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}

/// Reads what `DeliveryPacker` wrote, field by field.
struct PackedRecordReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let pools: DeliveryInternPools?
    var position = 0
    /// The record's device token and path once read, for the strings that repeat them.
    private var knownDeviceToken: String?
    private var knownPath: String?

    init(bytes: UnsafeBufferPointer<UInt8>, pools: DeliveryInternPools?) {
        self.bytes = bytes
        self.pools = pools
    }

    var atEnd: Bool { position == bytes.count }

    mutating func byte() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while shift < 64, let next = byte() {
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    mutating func signed() -> Int64? {
        guard let raw = varint() else { return nil }
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// The device token (.some(nil) when absent), remembered for the path that repeats it.
    mutating func deviceToken() -> String?? {
        let token = string()
        if let token { knownDeviceToken = token }
        return token
    }

    /// The path, remembered for the `:path` header that repeats it.
    mutating func path() -> String? {
        knownPath = presentString()
        return knownPath
    }

    /// The next string, which must be present: nil when it is absent or the bytes are not a string.
    mutating func presentString() -> String? {
        string() ?? nil
    }

    /// The next string: .some(nil) for an absent one, nil when the bytes are not a string.
    mutating func string() -> String?? {
        switch byte().flatMap(PackedDeliveryRecord.StringTag.init(rawValue:)) {
        case .absent: return .some(nil)
        case .pooled:
            guard let number = varint(), let text = pools?.strings.value(Int(number)) else { return nil }
            return text
        case .inline, .repeated:
            position -= 1
            guard let range = inlineRange() else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        case .hex:
            guard let digits = varint(), digits % 2 == 0, let upper = byte(), upper <= 1,
                  digits / 2 <= UInt64(bytes.count - position)
            else { return nil }
            defer { position += Int(digits / 2) }
            return Self.hexText(bytes[position..<(position + Int(digits / 2))], upper: upper == 1)
        case .uuid:
            guard let upper = byte(), upper <= 1, bytes.count - position >= 16 else { return nil }
            defer { position += 16 }
            let words = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[position..<(position + 16)]))
            return CanonicalUUID.text(
                high: words.loadUnaligned(as: UInt64.self), low: words.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                uppercase: upper == 1)
        case .devicePath:
            guard let knownDeviceToken else { return nil }
            return String(decoding: PackedDeliveryRecord.devicePathPrefix, as: UTF8.self) + knownDeviceToken
        case .path:
            return knownPath
        case nil: return nil
        }
    }

    /// Two hex digits a byte.
    private static func hexText(_ packed: Slice<UnsafeBufferPointer<UInt8>>, upper: Bool) -> String {
        let digits: StaticString = upper ? "0123456789ABCDEF" : "0123456789abcdef"
        return digits.withUTF8Buffer { digits in
            String(unsafeUninitializedCapacity: packed.count * 2) { text in
                var position = 0
                for byte in packed {
                    text[position] = digits[Int(byte >> 4)]
                    text[position + 1] = digits[Int(byte & 0xF)]
                    position += 2
                }
                return position
            }
        }
    }

    /// Where the bytes of the next string are, when it is written inline or as a repeat.
    mutating func inlineRange() -> Range<Int>? {
        switch byte().flatMap(PackedDeliveryRecord.StringTag.init(rawValue:)) {
        case .inline:
            guard let count = varint(), count <= UInt64(bytes.count - position) else { return nil }
            defer { position += Int(count) }
            return position..<(position + Int(count))
        case .repeated:
            guard let start = varint(), let count = varint(), start <= UInt64(position),
                  count <= UInt64(position) - start
            else { return nil }
            return Int(start)..<Int(start + count)
        default: return nil
        }
    }

    /// The payload: written out, or a number in the payload pool.
    mutating func payload() -> [UInt8]? {
        switch byte() {
        case 0: return byteArray()
        case 1:
            guard let number = varint() else { return nil }
            return pools?.payloads.value(Int(number))
        default: return nil
        }
    }

    mutating func byteArray() -> [UInt8]? {
        guard let count = varint(), count <= UInt64(bytes.count - position) else { return nil }
        defer { position += Int(count) }
        return Array(UnsafeBufferPointer(rebasing: bytes[position..<(position + Int(count))]))
    }

    /// A whole value written by `DeliveryPacker`: .some(nil) for nil, nil when the number is unknown. With no
    /// `pool` (a self-contained record) a byte 1 precedes the value's fields, which `writtenOut` reads.
    mutating func value<Value>(
        _ pool: InternPool<Value>?, writtenOut: (inout PackedRecordReader) -> Value?
    ) -> Value?? {
        guard let pool else {
            switch byte() {
            case 0: return .some(nil)
            case 1: return writtenOut(&self).map { .some($0) }
            default: return nil
            }
        }
        guard let number = varint() else { return nil }
        if number == 0 { return .some(nil) }
        guard let value = pool.value(Int(number - 1)) else { return nil }
        return value
    }

    /// TLS facts written out (`DeliveryPacker.tls`, self-contained).
    mutating func tls() -> TLSInfo? {
        guard let alpn = string(), let version = presentString(), let cipher = presentString(),
              let serverName = string()
        else { return nil }
        return TLSInfo(alpn: alpn, version: version, cipher: cipher, serverName: serverName)
    }

    /// A fault written out (`DeliveryPacker.writeOut(_:)`).
    mutating func fault() -> InjectedFault? {
        guard let faultJSON = presentString(), let index = signed(), let effect = presentString(),
              let rulesAnswer = presentString()
        else { return nil }
        return InjectedFault(faultJSON: faultJSON, index: Int(index), effect: effect, rulesAnswer: rulesAnswer)
    }

    /// A client certificate written out (`DeliveryPacker.writeOut(_:)`).
    mutating func certificate() -> ClientCertificateSummary? {
        guard let subject = presentString(), let bundleID = string(), let environments = strings(),
              let topics = strings(), let trusted = byte(), trusted <= 1, let problem = string(),
              let sha256 = presentString()
        else { return nil }
        return ClientCertificateSummary(
            subject: subject, bundleID: bundleID, environments: environments, topics: topics, trusted: trusted == 1,
            problem: problem, sha256: sha256)
    }

    /// A varint count, then as many present strings.
    private mutating func strings() -> [String]? {
        guard let count = varint(), count <= UInt64(bytes.count - position) else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let text = presentString() else { return nil }
            strings.append(text)
        }
        return strings
    }
}
