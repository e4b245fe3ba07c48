import APNSCore
import Foundation

extension PackedDeliveryRecord {
    /// The record `DeliveryPacker.pack` wrote into `bytes`, with `id` and `receivedAt`; nil if the bytes are not such a record.
    static func unpack(
        _ bytes: [UInt8], id: Int64, receivedAt: Timestamp, pools: DeliveryInternPools
    ) -> DeliveryRecord? {
        var reader = PackedRecordReader(bytes: bytes, pools: pools)
        guard let apnsID = reader.string() ?? nil,
              let connectionID = reader.varint(),
              let clientAddress = reader.string() ?? nil,
              let environmentNumber = reader.byte(),
              let tls = reader.value(pools.tls),
              let injected = reader.value(pools.faults),
              let clientCertificate = reader.value(pools.certificates),
              let method = reader.string() ?? nil,
              let path = reader.string() ?? nil,
              let deviceToken = reader.string(),
              let headerCount = reader.varint(), headerCount <= UInt64(bytes.count)
        else { return nil }
        var headers: [HeaderField] = []
        headers.reserveCapacity(Int(headerCount))
        for _ in 0..<headerCount {
            guard let name = reader.string() ?? nil, let value = reader.string() ?? nil else { return nil }
            headers.append(HeaderField(name, value))
        }
        var providerToken: ProviderTokenSummary?
        switch reader.byte() {
        case 0: break
        case 1:
            guard let header = reader.string(), let claims = reader.string(), let fingerprint = reader.string() ?? nil
            else { return nil }
            providerToken = ProviderTokenSummary(header: header, claims: claims, fingerprint: fingerprint)
        default: return nil
        }
        guard let payload = reader.byteArray(),
              let status = reader.signed(),
              let reason = reader.string(),
              let apnsUniqueID = reader.string(),
              let warningCount = reader.varint(), warningCount <= UInt64(bytes.count)
        else { return nil }
        var warnings: [PushWarning] = []
        warnings.reserveCapacity(Int(warningCount))
        for _ in 0..<warningCount {
            guard let code = reader.string() ?? nil, let message = reader.string() ?? nil else { return nil }
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
            guard let code = reader.string() ?? nil, let text = reader.string() ?? nil else { return nil }
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
    static func hasAPNsID(_ bytes: [UInt8], _ apnsID: String) -> Bool {
        var reader = PackedRecordReader(bytes: bytes, pools: nil)
        guard let range = reader.inlineRange() else { return false }
        var wanted = apnsID
        return wanted.withUTF8 { wanted in
            if wanted.contains(where: { $0 >= 0x80 }) || bytes[range].contains(where: { $0 >= 0x80 }) {
                return String(decoding: bytes[range], as: UTF8.self).caseInsensitiveCompare(apnsID) == .orderedSame
            }
            guard wanted.count == range.count else { return false }
            for (offset, byte) in wanted.enumerated() where lowered(byte) != lowered(bytes[range.lowerBound + offset]) {
                return false
            }
            return true
        }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

}

/// Reads what `DeliveryPacker` wrote, field by field.
struct PackedRecordReader {
    let bytes: [UInt8]
    let pools: DeliveryInternPools?
    var position = 0

    init(bytes: [UInt8], pools: DeliveryInternPools?) {
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
            return String(decoding: bytes[range], as: UTF8.self)
        case nil: return nil
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

    mutating func byteArray() -> [UInt8]? {
        guard let count = varint(), count <= UInt64(bytes.count - position) else { return nil }
        defer { position += Int(count) }
        return Array(bytes[position..<(position + Int(count))])
    }

    /// A whole value written by `DeliveryPacker`: .some(nil) for nil, nil when the number is unknown.
    mutating func value<Value>(_ pool: InternPool<Value>) -> Value?? {
        guard let number = varint() else { return nil }
        if number == 0 { return .some(nil) }
        guard let value = pool.value(Int(number - 1)) else { return nil }
        return value
    }
}
