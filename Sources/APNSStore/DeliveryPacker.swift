import APNSCore
import Foundation
import HTTPContract

/// Packs records into `PackedDeliveryRecord`'s bytes, interning into pools it shares with the store's other
/// packers (`SharedDeliveryPools`). Per push it reuses one scratch buffer and remembers the string it pooled at each
/// place of a record, so a record that repeats the previous one's texts costs string comparisons, not hash lookups
/// or the pools' lock.
///
/// A self-contained packer (`selfContained()`, no pools: the SQLite store's) writes the same layout with every
/// string, payload and whole value written out in the record (`PackedDeliveryRecord`, "Self-contained form").
struct DeliveryPacker: Sendable {
    /// The pools the numbers refer to; nil for a self-contained packer.
    let shared: SharedDeliveryPools?
    private var bytes = PackingBuffer()
    /// Where the inline strings of the record being packed are, to refer back to.
    private var inlineRanges: [Range<Int>] = []
    /// The string last pooled at each place of a record, and its number (in the pools of `generation`; -1: none
    /// yet). Two arrays of plain elements, so the check compares the string in place instead of copying it out.
    private var recentTexts = Array(repeating: "", count: Self.places)
    private var recentNumbers = Array(repeating: -1, count: Self.places)
    /// The TLS facts last pooled and their number (-1: none yet). Not optionals: comparing optionals (or taking
    /// the facts out of an optional tuple) copied and destroyed their strings on every record.
    private var recentTLS = Self.noTLS
    private var recentTLSNumber = -1
    /// Whether `recentTLS` holds a client certificate (read without copying the certificate out of it).
    private var recentTLSHasCertificate = false
    private static let noTLS = TLSInfo(alpn: nil, version: "", cipher: "", serverName: nil)
    /// The payload of the previous record, its number once pooled, and whether the pool was full for it.
    private var recentPayload: (bytes: [UInt8], number: Int?, poolFull: Bool)?
    /// The generation of the shared pools the remembered numbers and the record being packed refer to.
    private var generation: Int
    /// The pools were reset while the record was being packed: its numbers may be of either generation.
    private var stale = false

    /// Places 0..<32 are the record's own fields, then two per header (name, value).
    private static let headerPlaces = 32
    private static let places = headerPlaces + 2 * 32

    init(shared: SharedDeliveryPools) {
        self.shared = shared
        generation = shared.generation
    }

    /// A packer whose records refer to no pool: each is read back from its bytes alone.
    static func selfContained() -> DeliveryPacker { DeliveryPacker() }

    private init() {
        shared = nil
        generation = 0
    }

    /// Packs `record` into the scratch buffer (`withPackedBytes` reads it) and returns the generation of the pools
    /// its numbers refer to; nil when a pool of whole values is full or the pools were reset meanwhile (the caller
    /// keeps the record whole).
    mutating func packInScratch<Record: PackableDelivery>(_ record: Record) -> Int? {
        let current = shared?.generation ?? 0
        if current != generation {
            recentTexts = Array(repeating: "", count: Self.places)
            recentNumbers = Array(repeating: -1, count: Self.places)
            recentTLS = Self.noTLS
            recentTLSNumber = -1
            recentTLSHasCertificate = false
            recentPayload = nil
            generation = current
        }
        stale = false
        guard packFields(record), !stale else { return nil }
        return generation
    }

    /// How many bytes the last `packInScratch` wrote.
    var packedByteCount: Int { bytes.count }

    /// The bytes the last `packInScratch` wrote (valid during `body` only).
    func withPackedBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withBytes(body)
    }

    private mutating func packFields<Record: PackableDelivery>(_ record: Record) -> Bool {
        bytes.removeAll()
        inlineRanges.removeAll(keepingCapacity: true)
        inline(record.apnsID, bits: record.apnsIDBits)
        varint(record.connectionID)
        pooled(record.clientAddress, place: 0)
        bytes.append(record.environment.map { UInt8(APNsEnvironment.allCases.firstIndex(of: $0)! + 1) } ?? 0)
        guard tls(of: record),
              value(record.injected, { $0.faults.intern($1) }, writtenOut: { $0.writeOut($1) }),
              value(record.clientCertificate, { $0.certificates.intern($1) }, writtenOut: { $0.writeOut($1) })
        else { return false }
        pooled(record.method, place: 1)
        inline(record.deviceToken)
        if let token = record.deviceToken, Self.isDevicePath(record.path, token: token) {
            tag(.devicePath)
        } else {
            inline(record.path)
        }
        varint(UInt64(record.headerCount))
        let path = record.path
        record.forEachHeader { index, name, value in
            let place = Self.headerPlaces + 2 * index
            pooled(name, place: place)
            let unpooled = Self.isUnpooledHeader(name)
            if unpooled, name == ":path", value == path {
                tag(.path)
            } else if unpooled {
                inline(value)
            } else {
                pooled(value, place: place + 1)
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
        payload(record.payload)
        signed(Int64(record.status))
        pooled(record.reason, place: 5)
        inline(record.apnsUniqueID, bits: record.apnsUniqueIDBits)
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
        return true
    }

    @inline(__always)
    private mutating func varint(_ value: UInt64) {
        bytes.appendVarint(value)
    }

    @inline(__always)
    private mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    @inline(__always)
    private mutating func tag(_ tag: PackedDeliveryRecord.StringTag) { bytes.append(tag.rawValue) }

    /// Writes the string's number in the pool (the one remembered at `place` when the text is the same), or the
    /// string itself when it is too long for the pool or the pool is full. The remembered number is checked where
    /// `pooled` is called (~35 places a record, most of them hits), the rest is `pool(_:place:)`'s.
    @inline(__always)
    private mutating func pooled(_ text: String?, place: Int?) {
        if let text, let place, place < recentNumbers.count, shared != nil {
            let number = recentNumbers[place]
            if number >= 0, recentTexts[place] == text {
                tag(.pooled)
                return varint(UInt64(number))
            }
        }
        pool(text, place: place)
    }

    /// `pooled(_:place:)` when the text is not the one remembered at `place`.
    @inline(never)
    private mutating func pool(_ text: String?, place: Int?) {
        guard let text else { return tag(.absent) }
        if shared == nil { return literal(text) }
        guard text.utf8.count <= DeliveryInternPools.longestPooledString, let number = intern(text) else {
            return inline(text)
        }
        if let place, place < recentNumbers.count {
            recentTexts[place] = text
            recentNumbers[place] = number
        }
        tag(.pooled)
        varint(UInt64(number))
    }

    /// The text's number in the shared string pool; nil when the pool is full (or was reset: then `stale`).
    private mutating func intern(_ text: String) -> Int? {
        guard let number = shared?.withPools(ofGeneration: generation, { $0.strings.intern(text) }) else {
            stale = true
            return nil
        }
        return number
    }

    /// Writes the payload: a byte 1 and its number in the payload pool when it is the previous record's payload too
    /// (pooled then), else a byte 0, its count and its bytes. A payload that differs from push to push costs one
    /// comparison, never a hash or the pools' lock.
    private mutating func payload(_ payload: [UInt8]) {
        guard shared != nil else { return writeOut(payload: payload) }
        if let recent = recentPayload, Self.sameBytes(recent.bytes, payload) {
            if let number = recent.number { return pooledPayload(number) }
            if !recent.poolFull && payload.count <= DeliveryInternPools.longestPooledPayload {
                if let interned = shared?.withPools(ofGeneration: generation, { $0.payloads.intern(payload) }) {
                    recentPayload = (recent.bytes, interned, interned == nil)
                    if let number = interned { return pooledPayload(number) }
                } else {
                    stale = true
                }
            }
        } else {
            recentPayload = (payload, nil, false)
        }
        writeOut(payload: payload)
    }

    /// A byte 0, the payload's count and its bytes.
    private mutating func writeOut(payload: [UInt8]) {
        _ = payload.withUnsafeBufferPointer { bytes.appendCounted(tag: 0, $0) }
    }

    @inline(__always)
    private static var inlineTag: UInt8 { PackedDeliveryRecord.StringTag.inline.rawValue }

    private mutating func pooledPayload(_ number: Int) {
        bytes.append(1)
        varint(UInt64(number))
    }

    private static func sameBytes(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        guard first.count == second.count else { return false }
        return first.withUnsafeBufferPointer { first in
            second.withUnsafeBufferPointer { second in
                first.isEmpty || first.baseAddress == second.baseAddress
                    || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0
            }
        }
    }

    /// Writes the string's bytes as they are (`.inline`), or `.absent` for nil: what a self-contained packer writes
    /// where a pooling one writes a number (texts that rarely repeat within a record; no search for a repeat).
    private mutating func literal(_ text: String?) {
        guard let text else { return tag(.absent) }
        _ = text.withUTF8InPlace { utf8 in bytes.appendCounted(tag: Self.inlineTag, utf8) }
    }

    /// A fault's fields, in a self-contained record.
    private mutating func writeOut(_ fault: InjectedFault) {
        literal(fault.faultJSON)
        signed(Int64(fault.index))
        literal(fault.effect)
        literal(fault.rulesAnswer)
    }

    /// A client certificate's fields, in a self-contained record.
    private mutating func writeOut(_ certificate: ClientCertificateSummary) {
        literal(certificate.subject)
        literal(certificate.bundleID)
        varint(UInt64(certificate.environments.count))
        for environment in certificate.environments { literal(environment) }
        varint(UInt64(certificate.topics.count))
        for topic in certificate.topics { literal(topic) }
        bytes.append(certificate.trusted ? 1 : 0)
        literal(certificate.problem)
        literal(certificate.sha256)
    }

    /// Writes the string: as 16 bytes when it is a UUID, two hex digits a byte when it is a hex string (a token), a
    /// reference to the same bytes already written in this record (the whole or the end of an earlier inline
    /// string), or its bytes.
    private mutating func inline(_ text: String?) {
        guard let text else { return tag(.absent) }
        text.withUTF8InPlace { utf8 in inline(utf8) }
    }

    /// `inline(text)` for a UUID whose bits are known (a generated id): written from them as `packUUID` writes the
    /// text, which is not read again.
    @inline(__always)
    private mutating func inline(_ text: String?, bits: CanonicalUUID.Bits?) {
        guard let bits else { return inline(text) }
        assert(text.flatMap { $0.utf8.withContiguousStorageIfAvailable(CanonicalUUID.parse) ?? nil }.map {
            CanonicalUUID.Bits(high: $0.high, low: $0.low, uppercase: $0.uppercase)
        } == bits)
        writeUUID(bits)
    }

    private mutating func inline(_ utf8: UnsafeBufferPointer<UInt8>) {
        if utf8.count == 36, packUUID(utf8) { return }
        if utf8.count >= 16, utf8.count % 2 == 0, packHex(utf8) { return }
        if utf8.count > 8 {
            for range in inlineRanges where range.count >= utf8.count {
                let start = range.upperBound - utf8.count
                if bytes.bytesEqual(at: start, utf8) {
                    tag(.repeated)
                    varint(UInt64(start))
                    return varint(UInt64(utf8.count))
                }
            }
        }
        let start = bytes.appendCounted(tag: Self.inlineTag, utf8)
        inlineRanges.append(start..<bytes.count)
    }

    /// Writes a canonical UUID (8-4-4-4-12 hex digits of one letter case, `CanonicalUUID.parse`) as `.uuid`; false
    /// (nothing written) for anything else.
    private mutating func packUUID(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let uuid = CanonicalUUID.parse(utf8) else { return false }
        writeUUID(CanonicalUUID.Bits(high: uuid.high, low: uuid.low, uppercase: uuid.uppercase))
        return true
    }

    /// `.uuid`, whether its letters are upper case, and its 16 bytes.
    @inline(__always)
    private mutating func writeUUID(_ uuid: CanonicalUUID.Bits) {
        tag(.uuid)
        bytes.append(uuid.uppercase == true ? 1 : 0)
        bytes.append(count: 16) { room in
            UnsafeMutableRawPointer(room).storeBytes(of: uuid.high, as: UInt64.self)
            UnsafeMutableRawPointer(room).storeBytes(of: uuid.low, toByteOffset: 8, as: UInt64.self)
        }
    }

    /// Writes an even count of hex digits of one letter case as `.hex`; false (nothing written) otherwise. Eight
    /// digits at a time (`CanonicalUUID.decodeEightHexDigits`), the last two to six padded with "0"s.
    private mutating func packHex(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let mark = bytes.count
        tag(.hex)
        varint(UInt64(utf8.count))
        let caseByte = bytes.count
        bytes.append(0)
        var upper: UInt64 = 0
        var lower: UInt64 = 0
        var valid = true
        bytes.append(count: utf8.count / 2) { packed in
            let digits = UnsafeRawPointer(utf8.baseAddress!)
            // The letter cases seen are gathered in locals and stored once (the captured variables were read and
            // written through memory for every word).
            var upperSeen: UInt64 = 0
            var lowerSeen: UInt64 = 0
            var digit = 0
            let lastWhole = utf8.count &- 8
            while digit <= lastWhole {
                let word = UInt64(littleEndian: digits.loadUnaligned(fromByteOffset: digit, as: UInt64.self))
                guard let decoded = CanonicalUUID.decodeEightHexDigits(word) else {
                    valid = false
                    return
                }
                upperSeen |= decoded.upper
                lowerSeen |= decoded.lower
                UnsafeMutableRawPointer(packed + (digit &>> 1)).storeBytes(
                    of: decoded.value.littleEndian, as: UInt32.self)
                digit &+= 8
            }
            upper = upperSeen
            lower = lowerSeen
            let rest = utf8.count - digit
            guard rest > 0 else { return }
            var word: UInt64 = 0x3030_3030_3030_3030
            for index in 0..<rest {
                word = word & ~(0xFF << UInt64(8 * index)) | UInt64(utf8[digit + index]) << UInt64(8 * index)
            }
            guard let decoded = CanonicalUUID.decodeEightHexDigits(word) else {
                valid = false
                return
            }
            upper |= decoded.upper
            lower |= decoded.lower
            for index in 0..<(rest / 2) {
                packed[digit / 2 + index] = UInt8(truncatingIfNeeded: decoded.value >> UInt32(8 * index))
            }
        }
        guard valid, upper == 0 || lower == 0 else {
            bytes.truncate(to: mark)
            return false
        }
        bytes[caseByte] = upper != 0 ? 1 : 0
        return true
    }

    /// Whether the header's values differ from push to push (`:path`, `apns-id`, `apns-expiration`,
    /// `apns-collapse-id`): written out, never pooled (they would fill the pool). Most names are told apart by their
    /// length alone.
    private static func isUnpooledHeader(_ name: String) -> Bool {
        switch name.utf8.count {
        case 5: name == ":path"
        case 7: name == "apns-id"
        case 15: name == "apns-expiration"
        case 16: name == "apns-collapse-id"
        default: false
        }
    }

    /// Whether `path` is `/3/device/` followed by `token`. Both read in place (copies for `withUTF8` retained and
    /// released each), the prefix compared with `memcmp`.
    private static func isDevicePath(_ path: String, token: String) -> Bool {
        let prefix = PackedDeliveryRecord.devicePathText
        let prefixCount = prefix.utf8CodeUnitCount
        guard path.utf8.count == prefixCount + token.utf8.count else { return false }
        return path.withUTF8InPlace { path in
            token.withUTF8InPlace { token in
                memcmp(path.baseAddress!, prefix.utf8Start, prefixCount) == 0
                    && (token.isEmpty || memcmp(path.baseAddress! + prefixCount, token.baseAddress!, token.count) == 0)
            }
        }
    }

    /// The record's TLS facts: when they are the ones last pooled (one value per connection, so usually), their
    /// number, compared in place (`PackableDelivery.hasTLS(equalTo:)`: taking the facts out of the request copied
    /// them, client certificate and all, and destroyed the copy again, ~800 instructions a push); else as `tls(_:)`.
    @inline(__always)
    private mutating func tls<Record: PackableDelivery>(of record: Record) -> Bool {
        if shared != nil, recentTLSNumber >= 0, !recentTLSHasCertificate, record.hasTLS(equalTo: recentTLS) {
            varint(UInt64(recentTLSNumber) + 1)
            return true
        }
        return tls(record.tls)
    }

    /// The TLS facts, usually the same as the previous record's (one value per connection).
    private mutating func tls(_ tls: TLSInfo?) -> Bool {
        guard let tls else {
            bytes.append(0)
            return true
        }
        if shared == nil {
            bytes.append(1)
            literal(tls.alpn)
            literal(tls.version)
            literal(tls.cipher)
            literal(tls.serverName)
            return true
        }
        if recentTLSNumber >= 0, recentTLS == tls {
            varint(UInt64(recentTLSNumber) + 1)
            return true
        }
        guard let interned = shared?.withPools(ofGeneration: generation, { $0.tls.intern(tls) }) else {
            stale = true
            return false
        }
        guard let number = interned else { return false }
        recentTLSHasCertificate = tls.clientCertificate != nil
        recentTLS = tls
        recentTLSNumber = number
        varint(UInt64(number) + 1)
        return true
    }

    /// A whole value as its number in its pool plus one (0: nil); false when the pool is full. `intern` pools it
    /// (a closure rather than a key path to the pool: a key path was looked up for every record). A self-contained
    /// packer writes a byte 1 and the value's fields (`writtenOut`) instead.
    private mutating func value<Value>(
        _ value: Value?, _ intern: (inout DeliveryInternPools, Value) -> Int?,
        writtenOut: (inout DeliveryPacker, Value) -> Void
    ) -> Bool {
        guard let value else {
            bytes.append(0)
            return true
        }
        if shared == nil {
            bytes.append(1)
            writtenOut(&self, value)
            return true
        }
        guard let interned = shared?.withPools(ofGeneration: generation, { intern(&$0, value) }) else {
            stale = true
            return false
        }
        guard let number = interned else { return false }
        varint(UInt64(number) + 1)
        return true
    }
}
