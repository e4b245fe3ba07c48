import Foundation

/// A named sender scenario (Conformance/scenarios/NAME.json): what the adapter must send, the faults the mock
/// scripts for it, and the rules (by prefix) that the scenario exercises.
public struct Scenario: Sendable, Equatable, Codable {
    public struct Push: Sendable, Equatable, Codable {
        /// 64 hex digits (any length the scenario wants to test).
        public var token: String
        public var pushType: String?
        public var priority: Int?
        /// How many pushes of this kind; each gets a distinct alert body or a later timestamp.
        public var count: Int?
        /// The `aps` dictionary, without `timestamp` (the runner sets it: now + `timestampOffset` + index).
        public var aps: JSONObject
        public var timestampOffset: Int?
    }

    public var name: String
    public var title: String
    /// Rule name prefixes this scenario grades (`accepted`, `device`, `error.token-gone`, …).
    public var grades: [String]
    /// Fault specs installed before the adapter runs (the mock's `POST /api/config/faults` JSON).
    public var faults: [JSONObject]?
    public var pushes: [Push]
    /// Every push is expected to be delivered in the end (GOAWAY, retry scenarios).
    public var expectAllDelivered: Bool?
    /// Every push is due at the same moment (a broadcast): a library that can keep several requests in flight
    /// should (A-CONN). Passed to the adapter as `dueAtOnce` in the instruction file.
    public var dueAtOnce: Bool?

    public static func load(_ url: URL) throws -> Scenario {
        try JSONDecoder().decode(Scenario.self, from: Data(contentsOf: url))
    }

    /// The instruction file the adapter reads (`APNS_MOCK_SCENARIO`): each push with its device token, push
    /// type, topic, priority and the payload as JSON text, in order.
    public func instructions(bundleID: String, now: Int) throws -> Data {
        var list: [[String: Any]] = []
        for push in pushes {
            for index in 0..<max(1, push.count ?? 1) {
                var aps = push.aps.value
                if aps["event"] != nil { aps["timestamp"] = now + (push.timestampOffset ?? 0) + index }
                if (push.count ?? 1) > 1, aps["event"] == nil {
                    aps["alert"] = ["title": title, "body": "\(name) #\(index + 1)"]
                }
                let payload = try JSONSerialization.data(withJSONObject: ["aps": aps], options: [.sortedKeys])
                let type = push.pushType ?? "alert"
                var entry: [String: Any] = [
                    "deviceToken": push.token, "pushType": type, "payload": String(decoding: payload, as: UTF8.self),
                    "topic": type == "liveactivity" ? bundleID + ".push-type.liveactivity" : bundleID,
                ]
                if let priority = push.priority { entry["priority"] = priority }
                list.append(entry)
            }
        }
        return try JSONSerialization.data(withJSONObject: ["scenario": name, "pushes": list, "dueAtOnce": dueAtOnce == true], options: [.prettyPrinted, .sortedKeys])
    }

    public var pushCount: Int { pushes.reduce(0) { $0 + max(1, $1.count ?? 1) } }
}

/// A JSON object kept as Foundation values (scenario `aps` and fault specs are free-form).
public struct JSONObject: Equatable, Codable, @unchecked Sendable {
    public var value: [String: Any]

    public init(_ value: [String: Any]) { self.value = value }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let any = try container.decode(AnyJSON.self)
        guard let object = any.value as? [String: Any] else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a JSON object")
        }
        value = object
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(AnyJSON(value))
    }

    public var text: String {
        (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.text == rhs.text }
}

struct AnyJSON: Codable, @unchecked Sendable {
    let value: Any

    init(_ value: Any) { self.value = value }

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { value = NSNull() }
        else if let bool = try? container.decode(Bool.self) { value = bool }
        else if let int = try? container.decode(Int.self) { value = int }
        else if let double = try? container.decode(Double.self) { value = double }
        else if let string = try? container.decode(String.self) { value = string }
        else if let array = try? container.decode([AnyJSON].self) { value = array.map(\.value) }
        else { value = try container.decode([String: AnyJSON].self).mapValues(\.value) }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch value {
        case let bool as Bool: try container.encode(bool)
        case let int as Int: try container.encode(int)
        case let double as Double: try container.encode(double)
        case let string as String: try container.encode(string)
        case let array as [Any]: try container.encode(array.map(AnyJSON.init))
        case let object as [String: Any]: try container.encode(object.mapValues(AnyJSON.init))
        default: try container.encodeNil()
        }
    }
}
