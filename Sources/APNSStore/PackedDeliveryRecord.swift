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
    /// Payloads a packer saw twice in a row (a load test's one body, repeated): up to `longestPooledPayload` bytes.
    var payloads = InternPool<[UInt8]>(capacity: 256)

    static let longestPooledString = 1024
    static let longestPooledPayload = 4096
}

/// A delivery record as the in-memory store keeps it: one byte array (about 400 bytes for a Live Activity update,
/// against about 2.4 KB for the record value with its strings, headers array and payload), decoded back into the
/// same `DeliveryRecord` when read (`unpack`). Strings many records share are numbers into `DeliveryInternPools`;
/// the device token and the `:path` header refer to the bytes of `path` they repeat. The id and receive time stay
/// beside the bytes (`InMemoryDeliveryStore`), for paging and retention without decoding.
///
/// `DeliveryPacker` writes it, `PackedRecordReader` reads it, field by field in the same order.
///
/// Self-contained form: the SQLite store (schema version 5) keeps each record in this layout too, written by a
/// packer without pools (`DeliveryPacker.selfContained()`), so the bytes are read back from themselves alone: no
/// string is `.pooled`, the payload is always written out (byte 0), and the TLS facts, the injected fault and the
/// client certificate are a byte 0 (none) or a byte 1 followed by their fields (below). The store's `record` blob
/// is `SQLiteStoredRecord.packedTag` followed by these bytes; the id and the receive time are the row's
/// `id` and `received_at` columns. This is a file format: a change to the layout (a field added, moved or
/// re-encoded, a tag added) needs a new format tag, and readers keep reading the old ones.
///
/// Fields in order (a "string" is a `StringTag` and what follows it; varints are little-endian base 128; a signed
/// number is a zig-zag varint):
/// apnsID string · connectionID varint · clientAddress string · environment byte (0 none, else 1 + its index in
/// `APNsEnvironment.allCases`) · TLS (pooled: varint number + 1; self-contained: 1, alpn, version, cipher, serverName
/// strings) · injected fault (pooled: varint number + 1; self-contained: 1, faultJSON string, index signed, effect,
/// rulesAnswer strings) · client certificate (pooled: varint number + 1; self-contained: 1, subject, bundleID
/// strings, varint count + environments, varint count + topics, trusted byte, problem, sha256 strings) · method
/// string · deviceToken string · path string (or `.devicePath`) · varint header count, then name and value strings
/// each (`:path`'s value may be `.path`) · provider token byte 0, or 1 and header, claims, fingerprint strings ·
/// payload (0, varint count, bytes; or 1 and its varint number in the payload pool) · status signed · reason,
/// apnsUniqueID strings · varint warning count, then code and message strings each · explanation, ruleID strings ·
/// strict byte · pushType, topic strings · Live Activity outcome byte 0, or 1 and code, explanation strings ·
/// latencyMicroseconds signed. The record ends there.
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
        /// A UUID in canonical text (8-4-4-4-12 hex digits of one letter case): the case byte, then its two 64-bit
        /// halves as `CanonicalUUID.parse` reads them, in the machine's byte order.
        case uuid = 5
        /// `/3/device/` followed by the record's device token.
        case devicePath = 6
        /// The record's path (the `:path` header).
        case path = 7
    }

    /// What a device push's path holds before its token (`.devicePath`); the packer compares it in place.
    static var devicePathText: StaticString { "/3/device/" }
    static let devicePathPrefix = Array(
        UnsafeBufferPointer(start: devicePathText.utf8Start, count: devicePathText.utf8CodeUnitCount))
}

