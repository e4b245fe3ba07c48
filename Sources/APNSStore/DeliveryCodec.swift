import APNSCore
import Foundation

/// The one binary form of a delivery record, written and read here side by side: the SQLite store's `record` blob
/// (after `formatTag`) and the in-memory store's rows are these bytes. The id and the receive time are kept beside
/// them (the row's `id` and `received_at`), for paging and retention without decoding.
///
/// Fields in order (a "string" is a `StringTag` and what follows it; varints are little-endian base 128; a signed
/// number is a zig-zag varint; fixed-width numbers are little endian):
/// apnsID string · connectionID varint · clientAddress string · environment byte (0 none, else 1 + its index in
/// `APNsEnvironment.allCases`) · TLS byte 0, or 1 and alpn, version, cipher, serverName strings · injected fault
/// byte 0, or 1 and faultJSON string, index signed, effect, rulesAnswer strings · client certificate byte 0, or 1
/// and subject, bundleID strings, varint count + environments, varint count + topics, trusted byte, problem, sha256
/// strings · method string · deviceToken string · path string (or `.devicePath`) · varint header count, then name
/// and value strings each (`:path`'s value may be `.path`) · provider token byte 0, or 1 and header, claims,
/// fingerprint strings · payload byte 0, varint count, bytes · status signed · reason, apnsUniqueID strings ·
/// varint warning count, then code and message strings each · explanation, ruleID strings · strict byte · pushType,
/// topic strings · Live Activity outcome byte 0, or 1 and code, explanation strings · latencyMicroseconds signed.
///
/// A new record field: its stored property (`DeliveryRecord`), its JSON entry (`DeliveryRecord.fields`), and a
/// line in `encode` and `decode` here, with a new `SQLiteSchema.version` (a file of another version is moved aside).
enum DeliveryCodec {
    /// The first byte of a stored record's blob (the SQLite store): this layout. A layout that cannot be read by
    /// this code takes a new tag; never `{` (0x7B).
    static let formatTag: UInt8 = 0x01

    /// How a string is written: its first byte.
    enum StringTag: UInt8 {
        case absent = 0
        /// A varint length, then the UTF-8 bytes.
        case inline = 2
        /// `/3/device/` followed by the record's device token.
        case devicePath = 6
        /// The record's path (the `:path` header).
        case path = 7
    }

    static let devicePathPrefix = "/3/device/"

    // MARK: Writing

    /// Appends the record's bytes to `out` (a byte array, or the SQLite row the blob is written into in place).
    static func encode<Sink: DeliveryByteSink>(_ record: DeliveryRecord, into out: inout Sink) {
        out.string(record.apnsID)
        out.varint(record.connectionID)
        out.string(record.clientAddress)
        out.byte(record.environment.map { UInt8(APNsEnvironment.allCases.firstIndex(of: $0)! + 1) } ?? 0)
        out.optional(record.tls) { out, tls in
            out.string(tls.alpn)
            out.string(tls.version)
            out.string(tls.cipher)
            out.string(tls.serverName)
        }
        out.optional(record.injected) { out, fault in
            out.string(fault.faultJSON)
            out.signed(Int64(fault.index))
            out.string(fault.effect)
            out.string(fault.rulesAnswer)
        }
        out.optional(record.clientCertificate) { out, certificate in
            out.string(certificate.subject)
            out.string(certificate.bundleID)
            out.strings(certificate.environments)
            out.strings(certificate.topics)
            out.byte(certificate.trusted ? 1 : 0)
            out.string(certificate.problem)
            out.string(certificate.sha256)
        }
        out.string(record.method)
        out.string(record.deviceToken)
        if let token = record.deviceToken, isDevicePath(record.path, token: token) {
            out.tag(.devicePath)
        } else {
            out.string(record.path)
        }
        out.varint(UInt64(record.headers.count))
        for header in record.headers {
            out.string(header.name)
            if header.name.utf8.count == 5, header.name == ":path", header.value == record.path {
                out.tag(.path)
            } else {
                out.string(header.value)
            }
        }
        out.optional(record.providerToken) { out, token in
            out.string(token.header)
            out.string(token.claims)
            out.string(token.fingerprint)
        }
        out.byte(0)
        out.varint(UInt64(record.payload.count))
        out.appendBytes(record.payload)
        out.signed(Int64(record.status))
        out.string(record.reason)
        out.string(record.apnsUniqueID)
        out.varint(UInt64(record.warnings.count))
        for warning in record.warnings {
            out.string(warning.code)
            out.string(warning.message)
        }
        out.string(record.explanation)
        out.string(record.ruleID)
        out.byte(record.strict ? 1 : 0)
        out.string(record.pushType)
        out.string(record.topic)
        out.optional(record.liveActivity) { out, outcome in
            out.string(outcome.code)
            out.string(outcome.explanation)
        }
        out.signed(record.latencyMicroseconds)
    }

    /// Whether `path` is `/3/device/` followed by `token`: lengths first, then the standard library's `hasPrefix`
    /// and `hasSuffix` of two Strings (a byte compare for ASCII). Comparing substrings cost ~830 instructions a push,
    /// `elementsEqual` over the bytes ~4.4k, a loop over the UTF-8 views ~18k.
    private static func isDevicePath(_ path: String, token: String) -> Bool {
        path.utf8.count == devicePathPrefix.utf8.count + token.utf8.count
            && path.hasPrefix(devicePathPrefix) && path.hasSuffix(token)
    }
}

/// Where `DeliveryCodec.encode` writes: a byte array (the in-memory store's rows), or the SQLite store's row buffer
/// (the record's blob written in place, `SQLiteRow`), so a push's record is not first written to an array of its own.
protocol DeliveryByteSink {
    mutating func appendByte(_ byte: UInt8)
    /// The UTF-8 bytes of `text`, in one append.
    mutating func appendUTF8(_ text: String)
    mutating func appendBytes(_ bytes: [UInt8])
}

extension Array: DeliveryByteSink where Element == UInt8 {
    mutating func appendByte(_ byte: UInt8) { append(byte) }
    /// Read in place (`withUTF8InPlace`): `append(contentsOf: text.utf8)` took the generic sequence path, ~160
    /// instructions a string, ~40 strings a record.
    mutating func appendUTF8(_ text: String) { text.withUTF8InPlace { append(contentsOf: $0) } }
    mutating func appendBytes(_ bytes: [UInt8]) { append(contentsOf: bytes) }
}

/// The codec's writes, in `DeliveryCodec`'s layout.
extension DeliveryByteSink {
    fileprivate mutating func byte(_ value: UInt8) { appendByte(value) }

    fileprivate mutating func tag(_ tag: DeliveryCodec.StringTag) { appendByte(tag.rawValue) }

    /// Little-endian base 128, seven bits a byte, the high bit on every byte but the last.
    fileprivate mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            appendByte(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        appendByte(UInt8(truncatingIfNeeded: value))
    }

    fileprivate mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    fileprivate mutating func string(_ text: String?) {
        guard let text else { return tag(.absent) }
        tag(.inline)
        varint(UInt64(text.utf8.count))
        appendUTF8(text)
    }

    /// A byte 0 for nil, or a byte 1 and what `write` writes.
    fileprivate mutating func optional<Value>(_ value: Value?, _ write: (inout Self, Value) -> Void) {
        guard let value else { return byte(0) }
        byte(1)
        write(&self, value)
    }

    fileprivate mutating func strings(_ texts: [String]) {
        varint(UInt64(texts.count))
        for text in texts { string(text) }
    }
}

extension DeliveryCodec {
    // MARK: Reading

    /// The record `encode` wrote into `bytes`, with `id` and `receivedAt`; nil if the bytes are not such a record.
    static func decode(_ bytes: ArraySlice<UInt8>, id: Int64, receivedAt: Timestamp) -> DeliveryRecord? {
        var reader = Reader(bytes: bytes)
        guard let apnsID = reader.presentString(),
              let connectionID = reader.varint(),
              let clientAddress = reader.presentString(),
              let environmentNumber = reader.byte(),
              let tls = reader.optional({ $0.tls() }),
              let injected = reader.optional({ $0.fault() }),
              let clientCertificate = reader.optional({ $0.certificate() }),
              let method = reader.presentString(),
              let deviceToken = reader.string(),
              let path = reader.path(deviceToken: deviceToken),
              let headerCount = reader.count()
        else { return nil }
        var headers: [HeaderField] = []
        headers.reserveCapacity(headerCount)
        for _ in 0..<headerCount {
            guard let name = reader.presentString(), let value = reader.presentString() else { return nil }
            headers.append(HeaderField(name, value))
        }
        guard let providerToken = reader.optional({ reader -> ProviderTokenSummary? in
                  guard let header = reader.string(), let claims = reader.string(),
                        let fingerprint = reader.presentString()
                  else { return nil }
                  return ProviderTokenSummary(header: header, claims: claims, fingerprint: fingerprint)
              }),
              reader.byte() == 0, let payload = reader.byteArray(),
              let status = reader.signed(), let statusNumber = Int(exactly: status),
              let reason = reader.string(),
              let apnsUniqueID = reader.string(),
              let warningCount = reader.count()
        else { return nil }
        var warnings: [PushWarning] = []
        warnings.reserveCapacity(warningCount)
        for _ in 0..<warningCount {
            guard let code = reader.presentString(), let message = reader.presentString() else { return nil }
            warnings.append(PushWarning(code: code, message: message))
        }
        guard let explanation = reader.string(),
              let ruleID = reader.string(),
              let strict = reader.byte(), strict <= 1,
              let pushType = reader.string(),
              let topic = reader.string(),
              let liveActivity = reader.optional({ reader -> RecordedLiveActivityOutcome? in
                  guard let code = reader.presentString(), let text = reader.presentString() else { return nil }
                  return RecordedLiveActivityOutcome(code: code, explanation: text)
              }),
              let latency = reader.signed(), reader.atEnd
        else { return nil }
        let environments = APNsEnvironment.allCases
        guard Int(environmentNumber) <= environments.count else { return nil }
        let environment = environmentNumber == 0 ? nil : environments[Int(environmentNumber) - 1]
        return DeliveryRecord(
            id: id, receivedAt: receivedAt, connectionID: connectionID, clientAddress: clientAddress,
            environment: environment, tls: tls, method: method, path: path, deviceToken: deviceToken,
            headers: headers, providerToken: providerToken, payload: payload, status: statusNumber, reason: reason,
            apnsID: apnsID, apnsUniqueID: apnsUniqueID, warnings: warnings, explanation: explanation, ruleID: ruleID,
            strict: strict == 1, pushType: pushType, topic: topic, liveActivity: liveActivity,
            latencyMicroseconds: latency, injected: injected, clientCertificate: clientCertificate)
    }

    /// Whether the record's `apns-id` equals `apnsID` as `caseInsensitiveCompare` has it, without decoding the rest.
    static func hasAPNsID(_ bytes: ArraySlice<UInt8>, _ apnsID: String) -> Bool {
        var reader = Reader(bytes: bytes)
        guard let stored = reader.presentString() else { return false }
        if stored.utf8.count == apnsID.utf8.count, stored.utf8.allSatisfy({ $0 < 0x80 }),
           apnsID.utf8.allSatisfy({ $0 < 0x80 })
        {
            return zip(stored.utf8, apnsID.utf8).allSatisfy { lowered($0) == lowered($1) }
        }
        return stored.caseInsensitiveCompare(apnsID) == .orderedSame
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Reads what `encode` wrote, field by field; every read returns nil past the end or on bytes it does not know.
    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var position: Int
        /// The record's path once read, for the `:path` header that repeats it.
        private var knownPath: String?

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            position = bytes.startIndex
        }

        var atEnd: Bool { position == bytes.endIndex }

        mutating func byte() -> UInt8? {
            guard position < bytes.endIndex else { return nil }
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

        /// A varint count no larger than the bytes left (each counted item takes at least one byte).
        mutating func count() -> Int? {
            guard let count = varint(), count <= UInt64(bytes.endIndex - position) else { return nil }
            return Int(count)
        }

        /// The path: written out, or `/3/device/` and the device token.
        mutating func path(deviceToken: String?) -> String? {
            if position < bytes.endIndex, bytes[position] == StringTag.devicePath.rawValue {
                position += 1
                guard let deviceToken else { return nil }
                knownPath = DeliveryCodec.devicePathPrefix + deviceToken
            } else {
                knownPath = presentString()
            }
            return knownPath
        }

        /// The next string, which must be present: nil when it is absent or the bytes are not a string.
        mutating func presentString() -> String? {
            string() ?? nil
        }

        /// The next string: .some(nil) for an absent one, nil when the bytes are not a string.
        mutating func string() -> String?? {
            switch byte().flatMap(StringTag.init(rawValue:)) {
            case .absent: return .some(nil)
            case .inline:
                guard let count = count() else { return nil }
                defer { position += count }
                return String(decoding: bytes[position..<(position + count)], as: UTF8.self)
            case .path:
                return knownPath
            case .devicePath, nil:
                return nil
            }
        }

        mutating func byteArray() -> [UInt8]? {
            guard let count = count() else { return nil }
            defer { position += count }
            return Array(bytes[position..<(position + count)])
        }

        /// A byte 0 (.some(nil)), or a byte 1 and what `read` reads; nil for anything else.
        mutating func optional<Value>(_ read: (inout Reader) -> Value?) -> Value?? {
            switch byte() {
            case 0: return .some(nil)
            case 1: return read(&self).map { .some($0) }
            default: return nil
            }
        }

        mutating func tls() -> TLSInfo? {
            guard let alpn = string(), let version = presentString(), let cipher = presentString(),
                  let serverName = string()
            else { return nil }
            return TLSInfo(alpn: alpn, version: version, cipher: cipher, serverName: serverName)
        }

        mutating func fault() -> InjectedFault? {
            guard let faultJSON = presentString(), let index = signed(), let indexNumber = Int(exactly: index),
                  let effect = presentString(), let rulesAnswer = presentString()
            else { return nil }
            return InjectedFault(faultJSON: faultJSON, index: indexNumber, effect: effect, rulesAnswer: rulesAnswer)
        }

        mutating func certificate() -> ClientCertificateSummary? {
            guard let subject = presentString(), let bundleID = string(), let environments = strings(),
                  let topics = strings(), let trusted = byte(), trusted <= 1, let problem = string(),
                  let sha256 = presentString()
            else { return nil }
            return ClientCertificateSummary(
                subject: subject, bundleID: bundleID, environments: environments, topics: topics,
                trusted: trusted == 1, problem: problem, sha256: sha256)
        }

        /// A varint count, then as many present strings.
        private mutating func strings() -> [String]? {
            guard let count = count() else { return nil }
            var strings: [String] = []
            strings.reserveCapacity(count)
            for _ in 0..<count {
                guard let text = presentString() else { return nil }
                strings.append(text)
            }
            return strings
        }
    }
}
