/// A JSON value as it arrived, for checking Live Activity payloads the way the device's `JSONDecoder` would.
/// Objects keep their key order (so reports and timelines read like the payload that was sent) and numbers keep
/// their literal text (so `5` and `5.0`, and integers beyond 2^53, are told apart exactly as `JSONDecoder` does).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number's literal text as sent, e.g. `1767225600` or `0.5` or `1e3`.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The member's value, or nil when the key is absent. With duplicate keys the first one wins, as observed
    /// with swift-foundation's `JSONDecoder` (Swift 6.3, Linux), which iOS 17+ Foundation shares.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    /// The number as a `Double`, when this is a number.
    public var doubleValue: Double? {
        guard case .number(let text) = self else { return nil }
        return Double(text)
    }

    /// The name of the JSON type, as used in messages: "a string", "a number", …
    public var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
