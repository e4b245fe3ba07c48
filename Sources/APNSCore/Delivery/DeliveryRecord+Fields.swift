import APNSJSON
import Foundation

/// One field of a delivery record's stored and served form: its JSON key(s), how it is written and read back, the
/// text free-text search sees.
public struct DeliveryRecordField: Sendable {
    /// Writes `"key":value` into the record's open object; nothing for an absent optional.
    public let write: @Sendable (DeliveryRecord, inout JSONWriter) -> Void
    /// Reads the field from the parsed record object into `record`; throws when a required key is missing or has
    /// the wrong type. nil for fields that are only written (`receivedAt` as text, `accepted`).
    public let read: (@Sendable (JSONValue, inout DeliveryRecord) throws(DeliveryRecordDecodingError) -> Void)?
    /// Appends the texts `q` searches in this field; nil when search does not look at it.
    public let search: (@Sendable (DeliveryRecord, inout [String]) -> Void)?
    /// How the admin API and the command line show the field, where that differs from `write` (the stored form).
    public let present: (@Sendable (DeliveryRecord, inout JSONWriter) -> Void)?

    public init(
        write: @escaping @Sendable (DeliveryRecord, inout JSONWriter) -> Void,
        read: (@Sendable (JSONValue, inout DeliveryRecord) throws(DeliveryRecordDecodingError) -> Void)?,
        search: (@Sendable (DeliveryRecord, inout [String]) -> Void)? = nil,
        present: (@Sendable (DeliveryRecord, inout JSONWriter) -> Void)? = nil
    ) {
        self.present = present
        self.write = write
        self.read = read
        self.search = search
    }
}

/// Why stored or served record JSON does not read back as a record.
public struct DeliveryRecordDecodingError: Error, CustomStringConvertible {
    public var description: String
}

extension DeliveryRecord {
    /// The record's JSON description, in JSON key order. The admin API and JSON Lines export are `jsonBytes`
    /// (written from this table), `Codable` reads and writes the same form, `searchText` comes from here too. A new
    /// record field is its stored property, one entry here and a line each in `DeliveryCodec.encode` and `decode`.
    ///
    /// The form: camelCase keys, `receivedAt` as nanoseconds plus a readable ISO 8601 copy, the payload as text when
    /// it is UTF-8 (else base64), `accepted` spelled out for clients that filter on it; absent optionals left out.
    public static let fields: [DeliveryRecordField] = [
        .integer("id", { $0.id }, { $0.id = $1 }, required: false),
        DeliveryRecordField(
            write: { record, writer in
                writer.key("receivedAt")
                writeISO8601(record.receivedAt, to: &writer)
            },
            read: nil),
        DeliveryRecordField(
            write: { record, writer in writer.field("receivedAtNanos", record.receivedAt.nanosecondsSinceEpoch) },
            read: { object, record throws(DeliveryRecordDecodingError) in
                record.receivedAt = Timestamp(nanosecondsSinceEpoch: try int64(object, "receivedAtNanos"))
            }),
        DeliveryRecordField(
            write: { record, writer in writer.field("connectionId", Int64(bitPattern: record.connectionID)) },
            read: { object, record throws(DeliveryRecordDecodingError) in
                let text = try number(object, "connectionId")
                guard let id = UInt64(text) ?? Int64(text).map(UInt64.init(bitPattern:)) else {
                    throw DeliveryRecordDecodingError(description: "connectionId \(text) is not a 64-bit integer")
                }
                record.connectionID = id
            }),
        .string("clientAddress", { $0.clientAddress }, { $0.clientAddress = $1 }, searched: true),
        DeliveryRecordField(
            write: { record, writer in
                if let environment = record.environment { writer.field("environment", environment.rawValue) }
            },
            read: { object, record throws(DeliveryRecordDecodingError) in
                guard let text = try optionalString(object, "environment") else { return }
                guard let environment = APNsEnvironment(rawValue: text) else {
                    throw DeliveryRecordDecodingError(
                        description: "environment \(text) is not development or production")
                }
                record.environment = environment
            }),
        DeliveryRecordField(
            write: { record, writer in
                guard let tls = record.tls else { return }
                writer.key("tls")
                writer.beginObject()
                if let alpn = tls.alpn { writer.field("alpn", alpn) }
                writer.field("version", tls.version)
                writer.field("cipher", tls.cipher)
                if let serverName = tls.serverName { writer.field("serverName", serverName) }
                writer.endObject()
            },
            read: { object, record throws(DeliveryRecordDecodingError) in
                guard let tls = try optionalObject(object, "tls") else { return }
                record.tls = TLSInfo(
                    alpn: try optionalString(tls, "alpn"), version: try string(tls, "version"),
                    cipher: try string(tls, "cipher"), serverName: try optionalString(tls, "serverName"))
            }),
        DeliveryRecordField(
            write: { record, writer in
                guard let certificate = record.clientCertificate else { return }
                writer.key("clientCertificate")
                writer.beginObject()
                writer.field("subject", certificate.subject)
                if let bundleID = certificate.bundleID { writer.field("bundleId", bundleID) }
                writer.field("environments", JSONValue.array(certificate.environments.map(JSONValue.string)))
                writer.field("topics", JSONValue.array(certificate.topics.map(JSONValue.string)))
                writer.field("trusted", certificate.trusted)
                if let problem = certificate.problem { writer.field("problem", problem) }
                writer.field("sha256", certificate.sha256)
                writer.endObject()
            },
            read: { object, record throws(DeliveryRecordDecodingError) in
                guard let certificate = try optionalObject(object, "clientCertificate") else { return }
                func texts(_ key: String) throws(DeliveryRecordDecodingError) -> [String] {
                    guard case .array(let items)? = certificate[key] else { return [] }
                    var texts: [String] = []
                    for item in items {
                        guard case .string(let text) = item else {
                            throw DeliveryRecordDecodingError(description: "clientCertificate.\(key) holds a non-string")
                        }
                        texts.append(text)
                    }
                    return texts
                }
                record.clientCertificate = ClientCertificateSummary(
                    subject: try string(certificate, "subject"), bundleID: try optionalString(certificate, "bundleId"),
                    environments: try texts("environments"), topics: try texts("topics"),
                    trusted: certificate["trusted"] == .bool(true), problem: try optionalString(certificate, "problem"),
                    sha256: try string(certificate, "sha256"))
            },
            search: { record, parts in
                guard let certificate = record.clientCertificate else { return }
                parts.append(certificate.subject)
                if let bundleID = certificate.bundleID { parts.append(bundleID) }
            }),
        .string("method", { $0.method }, { $0.method = $1 }),
        .string("path", { $0.path }, { $0.path = $1 }, searched: true),
        .optionalString("deviceToken", { $0.deviceToken }, { $0.deviceToken = $1 }, searched: true),
        .pairs(
            "headers", ("name", "value"), required: true, { $0.headers }, { $0.headers = $1 },
            make: { HeaderField($0, $1) },
            search: { header, parts in parts.append(header.name + ": " + header.value) }),
        DeliveryRecordField(
            write: { record, writer in
                guard let token = record.providerToken else { return }
                writer.key("providerToken")
                writer.beginObject()
                if let header = token.header { writer.field("header", header) }
                if let claims = token.claims { writer.field("claims", claims) }
                writer.field("fingerprint", token.fingerprint)
                writer.endObject()
            },
            read: { object, record throws(DeliveryRecordDecodingError) in
                guard let token = try optionalObject(object, "providerToken") else { return }
                record.providerToken = ProviderTokenSummary(
                    header: try jsonText(token, "header"), claims: try jsonText(token, "claims"),
                    fingerprint: try string(token, "fingerprint"))
            },
            present: { record, writer in
                // The decoded JWT header and claims as JSON objects (number literals kept), text when not an object.
                guard let token = record.providerToken else { return }
                func embedded(_ name: String, _ text: String) {
                    if let value = try? JSONParser.parse(text), value.isObject {
                        writer.field(name, value)
                    } else {
                        writer.field(name, text)
                    }
                }
                writer.key("providerToken")
                writer.beginObject()
                if let header = token.header { embedded("header", header) }
                if let claims = token.claims { embedded("claims", claims) }
                writer.field("fingerprint", token.fingerprint)
                writer.endObject()
            }),
        DeliveryRecordField(
            write: { record, writer in
                if isASCII(record.payload.span) {
                    // ASCII is valid UTF-8: the bytes are the text, written without making a `String` of them.
                    writer.key("payload")
                    record.payload.withUnsafeBufferPointer { writer.string(utf8: $0) }
                } else if let text = record.payloadText {
                    writer.field("payload", text)
                } else {
                    writer.field("payloadBase64", Data(record.payload).base64EncodedString())
                }
            },
            read: { object, record throws(DeliveryRecordDecodingError) in
                if let base64 = try optionalString(object, "payloadBase64") {
                    guard let data = Data(base64Encoded: base64) else {
                        throw DeliveryRecordDecodingError(description: "payloadBase64 is not base64")
                    }
                    record.payload = [UInt8](data)
                } else {
                    record.payload = Array((try optionalString(object, "payload") ?? "").utf8)
                }
            },
            search: { record, parts in if let text = record.payloadText { parts.append(text) } }),
        DeliveryRecordField(
            // 0 = no HTTP answer was sent (a fault withheld it), written as null.
            write: { record, writer in
                if record.status == 0 { writer.key("status"); writer.null() } else { writer.field("status", Int64(record.status)) }
            },
            read: { object, record throws(DeliveryRecordDecodingError) in
                if case .null? = object["status"] { record.status = 0; return }
                guard let status = Int(exactly: try int64(object, "status")) else {
                    throw DeliveryRecordDecodingError(description: "status is out of range")
                }
                record.status = status
            }),
        .optionalString("reason", { $0.reason }, { $0.reason = $1 }, searched: true),
        DeliveryRecordField(write: { record, writer in writer.field("accepted", record.accepted) }, read: nil),
        .string("apnsId", { $0.apnsID }, { $0.apnsID = $1 }, searched: true),
        .optionalString("apnsUniqueId", { $0.apnsUniqueID }, { $0.apnsUniqueID = $1 }, searched: true),
        .pairs(
            "warnings", ("code", "message"), required: false, { $0.warnings }, { $0.warnings = $1 },
            make: { PushWarning(code: $0, message: $1) },
            search: { warning, parts in parts.append(warning.code); parts.append(warning.message) }),
        .optionalString("explanation", { $0.explanation }, { $0.explanation = $1 }, searched: true),
        .optionalString("ruleId", { $0.ruleID }, { $0.ruleID = $1 }, searched: true),
        DeliveryRecordField(
            write: { record, writer in writer.field("strict", record.strict) },
            read: { object, record throws(DeliveryRecordDecodingError) in
                switch object["strict"] {
                case nil, .null?: record.strict = false
                case .bool(let flag)?: record.strict = flag
                case let other?: throw DeliveryRecordDecodingError(description: "strict is \(other.typeDescription)")
                }
            }),
        .optionalString("pushType", { $0.pushType }, { $0.pushType = $1 }, searched: true),
        .optionalString("topic", { $0.topic }, { $0.topic = $1 }, searched: true),
        DeliveryRecordField(
            write: { record, writer in
                guard let outcome = record.liveActivity else { return }
                writer.key("liveActivity")
                writer.beginObject()
                writer.field("code", outcome.code)
                writer.field("explanation", outcome.explanation)
                writer.endObject()
            },
            read: { object, record throws(DeliveryRecordDecodingError) in
                guard let outcome = try optionalObject(object, "liveActivity") else { return }
                record.liveActivity = RecordedLiveActivityOutcome(
                    code: try string(outcome, "code"), explanation: try string(outcome, "explanation"))
            },
            search: { record, parts in
                if let outcome = record.liveActivity { parts.append(outcome.code); parts.append(outcome.explanation) }
            }),
        .integer(
            "latencyMicroseconds", { $0.latencyMicroseconds }, { $0.latencyMicroseconds = $1 }, required: true),
        DeliveryRecordField(
            write: { record, writer in
                guard let injected = record.injected else { return }
                writer.key("injected")
                writer.beginObject()
                writer.field("fault", JSONValue.parse(Array(injected.faultJSON.utf8)) ?? .object([]))
                writer.field("index", Int64(injected.index))
                writer.field("effect", injected.effect)
                writer.field("rulesAnswer", injected.rulesAnswer)
                writer.endObject()
            },
            read: { object, record throws(DeliveryRecordDecodingError) in
                guard let injected = try optionalObject(object, "injected") else { return }
                guard let fault = injected["fault"], fault.isObject else {
                    throw DeliveryRecordDecodingError(description: "injected.fault is not an object")
                }
                guard let index = Int(exactly: try int64(injected, "index")) else {
                    throw DeliveryRecordDecodingError(description: "injected.index is out of range")
                }
                record.injected = InjectedFault(
                    faultJSON: fault.compactText, index: index, effect: try string(injected, "effect"),
                    rulesAnswer: try string(injected, "rulesAnswer"))
            },
            search: { record, parts in if let injected = record.injected { parts.append(injected.effect) } }),
    ]

    /// The writers and search parts alone: iterating `fields` would retain every closure of each entry per record.
    public static let writers = fields.map { DeliveryRecordFieldWriter(write: $0.write) }
    /// The writers of the admin API's and the command line's form: the stored fields, then what is derived from
    /// them for people (never stored, so never out of date): `fix`, how to fix the answer (`HowToFix`, from the rule
    /// that decided), and `deviceWillMisbehave`, the warning codes that make an accepted push misbehave on the device.
    public static let presentedWriters = fields.map { DeliveryRecordFieldWriter(write: $0.present ?? $0.write) } + [
        DeliveryRecordFieldWriter { record, writer in
            if let fix = record.fix { writer.field("fix", fix) }
        },
        DeliveryRecordFieldWriter { record, writer in
            let codes = record.misbehavingWarningCodes
            if !codes.isEmpty { writer.field("deviceWillMisbehave", JSONValue.array(codes.map(JSONValue.string))) }
        },
    ]
    public static let searchers = fields.compactMap(\.search)

    /// A record with every field empty, for `init(json:)` to fill.
    private static let empty = DeliveryRecord(
        receivedAt: .zero, connectionID: 0, clientAddress: "", method: "", path: "", deviceToken: nil, headers: [],
        payload: [], status: 0, reason: nil, apnsID: "", pushType: nil, topic: nil, latencyMicroseconds: 0)

    /// Reads a record from its JSON form (`jsonBytes`, the admin API, a JSON Lines line).
    public init(json: JSONValue) throws(DeliveryRecordDecodingError) {
        guard json.isObject else { throw DeliveryRecordDecodingError(description: "a record must be a JSON object") }
        var record = Self.empty
        for field in Self.fields {
            try field.read?(json, &record)
        }
        self = record
    }

    /// Reads a record from JSON bytes.
    public init(jsonBytes: [UInt8]) throws(DeliveryRecordDecodingError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(jsonBytes)
        } catch {
            throw DeliveryRecordDecodingError(description: error.description)
        }
        try self.init(json: value)
    }

    /// Lower-cased text that free-text search (`q`) matches as a substring: ids, token, topic, push type, reason,
    /// rule, explanation, warnings, Live Activity outcome, header values and the payload text.
    public var searchText: String {
        var parts: [String] = []
        parts.reserveCapacity(16 + headers.count + 2 * warnings.count)
        for search in Self.searchers { search(self, &parts) }
        return Self.joinedLowercased(parts)
    }

    /// `parts.joined(separator: "\n").lowercased()` in one pass over the bytes when every part is ASCII (the
    /// usual record), which the store computes for every push; any other text takes the Unicode path.
    public static func joinedLowercased(_ parts: [String]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(parts.reduce(parts.count) { $0 + $1.utf8.count })
        for (position, part) in parts.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: "\n")) }
            var part = part
            let isASCII = part.withUTF8 { utf8 in
                for byte in utf8 {
                    guard byte < 0x80 else { return false }
                    bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
                }
                return true
            }
            guard isASCII else { return parts.joined(separator: "\n").lowercased() }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Entries for plain fields. `get` and `set` are closures rather than key paths: key-path projection costs more
/// than the rest of a record's encoding, which runs on every push.
extension DeliveryRecordField {
    public static func string(
        _ key: String, _ get: @escaping @Sendable (DeliveryRecord) -> String,
        _ set: @escaping @Sendable (inout DeliveryRecord, String) -> Void, searched: Bool = false
    ) -> DeliveryRecordField {
        let search: @Sendable (DeliveryRecord, inout [String]) -> Void = { record, parts in parts.append(get(record)) }
        let encodedKey = JSONWriter.EncodedKey(key)
        return DeliveryRecordField(
            write: { record, writer in writer.field(encodedKey, get(record)) },
            read: { object, record throws(DeliveryRecordDecodingError) in
                set(&record, try DeliveryRecord.string(object, key))
            },
            search: searched ? search : nil)
    }

    public static func optionalString(
        _ key: String, _ get: @escaping @Sendable (DeliveryRecord) -> String?,
        _ set: @escaping @Sendable (inout DeliveryRecord, String?) -> Void, searched: Bool = false
    ) -> DeliveryRecordField {
        let search: @Sendable (DeliveryRecord, inout [String]) -> Void = { record, parts in
            if let text = get(record) { parts.append(text) }
        }
        let encodedKey = JSONWriter.EncodedKey(key)
        return DeliveryRecordField(
            write: { record, writer in
                if let text = get(record) { writer.field(encodedKey, text) }
            },
            read: { object, record throws(DeliveryRecordDecodingError) in
                set(&record, try DeliveryRecord.optionalString(object, key))
            },
            search: searched ? search : nil)
    }

    /// An array of objects with two string members (`headers`: name/value, `warnings`: code/message).
    public static func pairs<Item: DeliveryRecordPair & Sendable>(
        _ key: String, _ names: (String, String), required: Bool,
        _ get: @escaping @Sendable (DeliveryRecord) -> [Item],
        _ set: @escaping @Sendable (inout DeliveryRecord, [Item]) -> Void,
        make: @escaping @Sendable (String, String) -> Item,
        search: @escaping @Sendable (Item, inout [String]) -> Void
    ) -> DeliveryRecordField {
        let (encodedKey, firstName, secondName) =
            (JSONWriter.EncodedKey(key), JSONWriter.EncodedKey(names.0), JSONWriter.EncodedKey(names.1))
        return DeliveryRecordField(
            write: { record, writer in
                writer.key(encodedKey)
                writer.beginArray()
                for item in get(record) {
                    writer.element()
                    writer.beginObject()
                    item.writeMembers(firstName, secondName, to: &writer)
                    writer.endObject()
                }
                writer.endArray()
            },
            read: { object, record throws(DeliveryRecordDecodingError) in
                let items = try DeliveryRecord.objects(object, key, required: required).map {
                    (member) throws(DeliveryRecordDecodingError) in
                    make(try DeliveryRecord.string(member, names.0), try DeliveryRecord.string(member, names.1))
                }
                set(&record, items)
            },
            search: { record, parts in
                for item in get(record) { search(item, &parts) }
            })
    }

    public static func integer(
        _ key: String, _ get: @escaping @Sendable (DeliveryRecord) -> Int64,
        _ set: @escaping @Sendable (inout DeliveryRecord, Int64) -> Void, required: Bool
    ) -> DeliveryRecordField {
        let encodedKey = JSONWriter.EncodedKey(key)
        return DeliveryRecordField(
            write: { record, writer in writer.field(encodedKey, get(record)) },
            read: { object, record throws(DeliveryRecordDecodingError) in
                let present = object[key].map { $0 != .null } ?? false
                if required || present { set(&record, try DeliveryRecord.int64(object, key)) }
            })
    }
}

/// Typed reads from a parsed record object, with messages that name the key.
extension DeliveryRecord {
    fileprivate static func string(_ object: JSONValue, _ key: String) throws(DeliveryRecordDecodingError) -> String {
        guard let value = try optionalString(object, key) else {
            throw DeliveryRecordDecodingError(description: "\(key) is missing")
        }
        return value
    }

    fileprivate static func optionalString(
        _ object: JSONValue, _ key: String
    ) throws(DeliveryRecordDecodingError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?:
            throw DeliveryRecordDecodingError(description: "\(key) is \(other.typeDescription), not a string")
        }
    }

    /// A member stored as JSON text, or served as a JSON object (the admin API's form of the JWT header and claims).
    fileprivate static func jsonText(_ object: JSONValue, _ key: String) throws(DeliveryRecordDecodingError) -> String? {
        if let value = object[key], value.isObject { return value.compactText }
        return try optionalString(object, key)
    }

    fileprivate static func number(_ object: JSONValue, _ key: String) throws(DeliveryRecordDecodingError) -> String {
        guard case .number(let text)? = object[key] else {
            throw DeliveryRecordDecodingError(description: "\(key) is missing or not a number")
        }
        return text
    }

    fileprivate static func int64(_ object: JSONValue, _ key: String) throws(DeliveryRecordDecodingError) -> Int64 {
        guard let value = object[key]?.int64Value else {
            throw DeliveryRecordDecodingError(description: "\(key) is missing or not a 64-bit integer")
        }
        return value
    }

    fileprivate static func optionalObject(
        _ object: JSONValue, _ key: String
    ) throws(DeliveryRecordDecodingError) -> JSONValue? {
        switch object[key] {
        case nil, .null?: return nil
        case let value? where value.isObject: return value
        case let other?:
            throw DeliveryRecordDecodingError(description: "\(key) is \(other.typeDescription), not an object")
        }
    }

    fileprivate static func objects(
        _ object: JSONValue, _ key: String, required: Bool
    ) throws(DeliveryRecordDecodingError) -> [JSONValue] {
        switch object[key] {
        case nil, .null?:
            if required { throw DeliveryRecordDecodingError(description: "\(key) is missing") }
            return []
        case .array(let elements)?:
            guard elements.allSatisfy(\.isObject) else {
                throw DeliveryRecordDecodingError(description: "\(key) holds something other than objects")
            }
            return elements
        case let other?:
            throw DeliveryRecordDecodingError(description: "\(key) is \(other.typeDescription), not an array")
        }
    }
}
