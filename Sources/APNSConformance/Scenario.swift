import APNSJSON
import Foundation

/// A named sender scenario (Conformance/scenarios/NAME.json): what the adapter must send, the faults the mock
/// scripts for it, and the rules (by prefix) that the scenario exercises.
package struct Scenario: Sendable, Equatable, Codable {
    package struct Push: Sendable, Equatable, Codable {
        /// 64 hex digits (any length the scenario wants to test).
        package var token: String
        package var pushType: String?
        package var priority: Int?
        /// How many pushes of this kind; each gets a distinct alert body or a later timestamp.
        package var count: Int?
        /// The `aps` dictionary, without `timestamp` (the runner sets it: now + `timestampOffset` + index).
        package var aps: JSONObject
        package var timestampOffset: Int?
    }

    package var name: String
    package var title: String
    /// Rule name prefixes this scenario grades (`accepted`, `device`, `error.token-gone`, …).
    package var grades: [String]
    /// Fault specs installed before the adapter runs (the mock's `POST /api/config/faults` JSON).
    package var faults: [JSONObject]?
    package var pushes: [Push]
    /// Every push is expected to be delivered in the end (GOAWAY, retry scenarios).
    package var expectAllDelivered: Bool?
    /// Every push is due at the same moment (a broadcast): a library that can keep several requests in flight
    /// should (A-CONN). Passed to the adapter as `dueAtOnce` in the instruction file.
    package var dueAtOnce: Bool?

    package static func load(_ url: URL) throws -> Scenario {
        try JSONDecoding.decode(Scenario.self, from: Data(contentsOf: url))
    }

    /// The instruction file the adapter reads (`APNS_MOCK_SCENARIO`): each push with its device token, push
    /// type, topic, priority and the payload as JSON text, in order.
    package func instructions(bundleID: String, now: Int) throws -> Data {
        struct Entry: Encodable {
            var deviceToken, pushType, payload, topic: String
            var priority: Int?
        }
        struct Instructions: Encodable {
            var scenario: String
            var pushes: [Entry]
            var dueAtOnce: Bool
        }
        var list: [Entry] = []
        for push in pushes {
            for index in 0..<max(1, push.count ?? 1) {
                var aps = push.aps
                if aps["event"] != nil { aps["timestamp"] = .number(String(now + (push.timestampOffset ?? 0) + index)) }
                if (push.count ?? 1) > 1, aps["event"] == nil {
                    aps["alert"] = .object([
                        JSONMember("body", .string("\(name) #\(index + 1)")), JSONMember("title", .string(title)),
                    ])
                }
                let payload = JSONObject(.object([JSONMember("aps", aps.value)])).text
                let type = push.pushType ?? "alert"
                list.append(Entry(
                    deviceToken: push.token, pushType: type, payload: payload,
                    topic: type == "liveactivity" ? bundleID + ".push-type.liveactivity" : bundleID,
                    priority: push.priority))
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(Instructions(scenario: name, pushes: list, dueAtOnce: dueAtOnce == true))
    }

    package var pushCount: Int { pushes.reduce(0) { $0 + max(1, $1.count ?? 1) } }
}

/// A free-form JSON object (scenario `aps`, fault specs, a case's server configuration), kept as `JSONValue`.
package struct JSONObject: Equatable, Codable, Sendable {
    /// Always an object.
    package private(set) var value: JSONValue

    /// `value` when it is an object, else an empty object.
    package init(_ value: JSONValue) {
        self.value = value.isObject ? value : .object([])
    }

    package init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(JSONValue.self)
        guard value.isObject else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a JSON object")
        }
        self.value = value
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    package var isEmpty: Bool { value.members?.isEmpty ?? true }

    /// A member's value; setting replaces the first member of that name or appends one.
    package subscript(key: String) -> JSONValue? {
        get { value[key] }
        set {
            var members = (value.members ?? []).filter { $0.key != key || newValue != nil }
            if let newValue {
                if let index = members.firstIndex(where: { $0.key == key }) {
                    members[index].value = newValue
                } else {
                    members.append(JSONMember(key, newValue))
                }
            }
            value = .object(members)
        }
    }

    /// Compact JSON text with keys sorted.
    package var text: String { value.sortedCompactText }

    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.text == rhs.text }
}
