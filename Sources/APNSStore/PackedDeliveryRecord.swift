import APNSCore
import Foundation

/// The pools the in-memory store's packed records refer to.
struct DeliveryInternPools: Sendable {
    /// Strings up to `longestPooledString` UTF-8 bytes: header names and most values, the topic, the provider
    /// token's texts, warnings, explanations.
    var strings = InternPool<String>(capacity: 8192)
    var tls = InternPool<TLSInfo>(capacity: 1024)
    var faults = InternPool<InjectedFault>(capacity: 1024)
    var certificates = InternPool<ClientCertificateSummary>(capacity: 1024)

    static let longestPooledString = 1024
}

/// A delivery record as the in-memory store keeps it: one byte array (about 400 bytes for a Live Activity update,
/// against about 2.4 KB for the record value with its strings, headers array and payload), decoded back into the
/// same `DeliveryRecord` when read (`unpack`). Strings many records share are numbers into `DeliveryInternPools`;
/// the device token and the `:path` header refer to the bytes of `path` they repeat. The id and receive time stay
/// beside the bytes (`InMemoryDeliveryStore`), for paging and retention without decoding.
///
/// The layout is private to the process: nothing is written to disk in it. `DeliveryPacker` writes it,
/// `PackedRecordReader` reads it, field by field in the same order.
enum PackedDeliveryRecord {
    /// How a string is written: its first byte.
    enum StringTag: UInt8 {
        case absent = 0
        /// A varint: its number in the string pool.
        case pooled = 1
        /// A varint length, then the UTF-8 bytes.
        case inline = 2
        /// Varints offset and length: bytes of a string written earlier in the same record (an `apns-id` header
        /// that repeats the apnsID).
        case repeated = 3
        /// Hexadecimal digits of one letter case (a device token): a varint count of digits (even), a byte 1 for
        /// upper case, 0 for lower, then two digits a byte.
        case hex = 4
        /// A UUID in canonical text (8-4-4-4-12 hex digits of one letter case): the case byte, then 16 bytes.
        case uuid = 5
        /// `/3/device/` followed by the record's device token.
        case devicePath = 6
        /// The record's path (the `:path` header).
        case path = 7
    }

    static let devicePathPrefix = Array("/3/device/".utf8)
    /// Header values that differ from push to push: written out, never pooled (they would fill the pool).
    static let unpooledHeaders = [":path", "apns-id", "apns-expiration", "apns-collapse-id"]
}

/// Packs records into `PackedDeliveryRecord`'s bytes and keeps the pools they refer to. Per push it reuses one
/// scratch buffer and remembers the string it pooled at each place of a record, so a record that repeats the
/// previous one's texts costs string comparisons, not hash lookups.
struct DeliveryPacker: Sendable {
    private(set) var pools = DeliveryInternPools()
    private var bytes: [UInt8] = []
    /// Where the inline strings of the record being packed are, to refer back to.
    private var inlineRanges: [Range<Int>] = []
    /// The string last pooled at each place of a record, and its number.
    private var recent: [(text: String, number: Int)?] = Array(repeating: nil, count: Self.places)
    private var recentTLS: (value: TLSInfo, number: Int)?

    /// Places 0..<32 are the record's own fields, then two per header (name, value).
    private static let headerPlaces = 32
    private static let places = headerPlaces + 2 * 32

    init(pools: DeliveryInternPools = DeliveryInternPools()) {
        self.pools = pools
    }

    /// The packed bytes of `record` (its `id` and `receivedAt` are not in them); nil when a pool of whole values
    /// (TLS facts, fault, client certificate) is full, and the caller keeps the record as it is.
    mutating func pack(_ record: DeliveryRecord) -> [UInt8]? {
        bytes.removeAll(keepingCapacity: true)
        inlineRanges.removeAll(keepingCapacity: true)
        inline(record.apnsID)
        varint(record.connectionID)
        pooled(record.clientAddress, place: 0)
        bytes.append(record.environment.map { UInt8(APNsEnvironment.allCases.firstIndex(of: $0)! + 1) } ?? 0)
        guard tls(record.tls),
              value(record.injected, \.faults),
              value(record.clientCertificate, \.certificates)
        else { return nil }
        pooled(record.method, place: 1)
        inline(record.deviceToken)
        if let token = record.deviceToken, Self.isDevicePath(record.path, token: token) {
            tag(.devicePath)
        } else {
            inline(record.path)
        }
        varint(UInt64(record.headers.count))
        for (index, header) in record.headers.enumerated() {
            let place = Self.headerPlaces + 2 * index
            pooled(header.name, place: place)
            if header.name == ":path", header.value == record.path {
                tag(.path)
            } else if PackedDeliveryRecord.unpooledHeaders.contains(header.name) {
                inline(header.value)
            } else {
                pooled(header.value, place: place + 1)
            }
        }
        if let token = record.providerToken {
            bytes.append(1)
            pooled(token.header, place: 2)
            pooled(token.claims, place: 3)
            pooled(token.fingerprint, place: 4)
        } else {
            bytes.append(0)
        }
        varint(UInt64(record.payload.count))
        bytes.append(contentsOf: record.payload)
        signed(Int64(record.status))
        pooled(record.reason, place: 5)
        inline(record.apnsUniqueID)
        varint(UInt64(record.warnings.count))
        for (index, warning) in record.warnings.enumerated() {
            pooled(warning.code, place: index < 4 ? 6 + 2 * index : nil)
            pooled(warning.message, place: index < 4 ? 7 + 2 * index : nil)
        }
        pooled(record.explanation, place: 14)
        pooled(record.ruleID, place: 15)
        bytes.append(record.strict ? 1 : 0)
        pooled(record.pushType, place: 16)
        pooled(record.topic, place: 17)
        if let outcome = record.liveActivity {
            bytes.append(1)
            pooled(outcome.code, place: 18)
            pooled(outcome.explanation, place: 19)
        } else {
            bytes.append(0)
        }
        signed(record.latencyMicroseconds)
        return exactCopy()
    }

    /// The scratch buffer's bytes in an array of their own, as long as the record (`Array(bytes)` would hand the
    /// scratch buffer itself, with its spare capacity, to the record, and allocate a new scratch buffer per push).
    private func exactCopy() -> [UInt8] {
        bytes.withUnsafeBufferPointer { written in
            [UInt8](unsafeUninitializedCapacity: written.count) { copy, count in
                count = copy.initialize(fromContentsOf: written)
            }
        }
    }

    private mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    private mutating func tag(_ tag: PackedDeliveryRecord.StringTag) { bytes.append(tag.rawValue) }

    /// Writes the string's number in the pool (the one remembered at `place` when the text is the same), or the
    /// string itself when it is too long for the pool or the pool is full.
    private mutating func pooled(_ text: String?, place: Int?) {
        guard let text else { return tag(.absent) }
        if let place, place < recent.count, let known = recent[place], known.text == text {
            tag(.pooled)
            return varint(UInt64(known.number))
        }
        guard text.utf8.count <= DeliveryInternPools.longestPooledString, let number = pools.strings.intern(text)
        else { return inline(text) }
        if let place, place < recent.count { recent[place] = (text, number) }
        tag(.pooled)
        varint(UInt64(number))
    }

    /// Writes the string: as 16 bytes when it is a UUID, two hex digits a byte when it is a hex string (a token), a
    /// reference to the same bytes already written in this record (the whole or the end of an earlier inline
    /// string), or its bytes.
    private mutating func inline(_ text: String?) {
        guard var text else { return tag(.absent) }
        let written: Bool = text.withUTF8 { utf8 in
            if utf8.count == 36, packHex(utf8, as: .uuid) { return true }
            if utf8.count >= 16, utf8.count % 2 == 0, packHex(utf8, as: .hex) { return true }
            guard utf8.count > 8, let wanted = utf8.baseAddress else { return false }
            let repeated: Int? = bytes.withUnsafeBufferPointer { written in
                for range in inlineRanges where range.count >= utf8.count {
                    let start = range.upperBound - utf8.count
                    if memcmp(written.baseAddress! + start, wanted, utf8.count) == 0 { return start }
                }
                return nil
            }
            guard let repeated else { return false }
            tag(.repeated)
            varint(UInt64(repeated))
            varint(UInt64(utf8.count))
            return true
        }
        if written { return }
        let count = text.utf8.count
        tag(.inline)
        varint(UInt64(count))
        let start = bytes.count
        text.withUTF8 { bytes.append(contentsOf: $0) }
        inlineRanges.append(start..<bytes.count)
    }

    /// Writes `utf8` as `.uuid` or `.hex` when every byte (but a UUID's dashes) is a hex digit and the letters are
    /// of one case; false (nothing written) otherwise.
    private mutating func packHex(_ utf8: UnsafeBufferPointer<UInt8>, as form: PackedDeliveryRecord.StringTag) -> Bool {
        let mark = bytes.count
        tag(form)
        if form == .hex { varint(UInt64(utf8.count)) }
        let caseByte = bytes.count
        bytes.append(0)
        var upper: Bool?
        var pending: UInt8?
        for (position, byte) in utf8.enumerated() {
            if form == .uuid && CanonicalUUID.isDash(at: position) {
                if byte == UInt8(ascii: "-") { continue }
                bytes.removeSubrange(mark...)
                return false
            }
            guard let digit = CanonicalUUID.hexDigit(byte), digit.upper == nil || upper == nil
                || digit.upper == upper
            else {
                bytes.removeSubrange(mark...)
                return false
            }
            if let letterCase = digit.upper { upper = letterCase }
            if let high = pending {
                bytes.append(high << 4 | digit.value)
                pending = nil
            } else {
                pending = digit.value
            }
        }
        bytes[caseByte] = upper == true ? 1 : 0
        return true
    }

    /// Whether `path` is `/3/device/` followed by `token`.
    private static func isDevicePath(_ path: String, token: String) -> Bool {
        var path = path
        var token = token
        return path.withUTF8 { path in
            token.withUTF8 { token in
                let prefix = PackedDeliveryRecord.devicePathPrefix
                guard path.count == prefix.count + token.count, let base = path.baseAddress else { return false }
                return path.prefix(prefix.count).elementsEqual(prefix)
                    && (token.isEmpty || memcmp(base + prefix.count, token.baseAddress!, token.count) == 0)
            }
        }
    }

    /// The TLS facts, usually the same as the previous record's (one value per connection).
    private mutating func tls(_ tls: TLSInfo?) -> Bool {
        guard let tls else {
            bytes.append(0)
            return true
        }
        if let known = recentTLS, known.value == tls {
            varint(UInt64(known.number) + 1)
            return true
        }
        guard let number = pools.tls.intern(tls) else { return false }
        recentTLS = (tls, number)
        varint(UInt64(number) + 1)
        return true
    }

    /// A whole value as its number in its pool plus one (0: nil); false when the pool is full.
    private mutating func value<Value>(
        _ value: Value?, _ pool: WritableKeyPath<DeliveryInternPools, InternPool<Value>>
    ) -> Bool {
        guard let value else {
            bytes.append(0)
            return true
        }
        guard let number = pools[keyPath: pool].intern(value) else { return false }
        varint(UInt64(number) + 1)
        return true
    }
}
