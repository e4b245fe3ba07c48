/// A JSON value as it arrived: objects keep their members in order (duplicates included, so reports read like the
/// payload that was sent) and numbers keep their literal text (so `5` and `5.0`, and integers beyond 2^53, stay
/// apart exactly as `JSONDecoder` tells them apart). Lookups follow `JSONDecoder`: the first of duplicate keys wins.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number's literal text as sent, e.g. `1767225600` or `0.5` or `1e3`.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// Parses `bytes` as exactly one JSON value; nil when they are not (`JSONParser.parse` says why).
    public static func parse(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONParser.parse(bytes)
    }

    /// The member's value, or nil when this is not an object or the key is absent. With duplicate keys the first
    /// one wins, as with `JSONDecoder`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    /// The members when this is an object, in the order sent (duplicates included).
    public var members: [JSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// Whether this is an object.
    public var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// The object as a dictionary (first of duplicate keys wins); nil when this is not an object.
    public var objectValue: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        var dictionary: [String: JSONValue] = [:]
        dictionary.reserveCapacity(members.count)
        for member in members where dictionary[member.key] == nil { dictionary[member.key] = member.value }
        return dictionary
    }

    /// The distinct keys of an object, in the order they first appear; nil when this is not an object.
    public var keys: [String]? {
        guard case .object(let members) = self else { return nil }
        var seen = Set<String>()
        return members.compactMap { seen.insert($0.key).inserted ? $0.key : nil }
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number as a `Double` (`1e400` reads as infinity; callers that need a finite value check `isFinite`).
    public var doubleValue: Double? {
        guard case .number(let text) = self else { return nil }
        return Self.wholeNumber(text) ?? Double(text)
    }

    /// A literal of 1 to 15 digits (a UNIX time in seconds, a score) read without `strtod`: exact, as `Double(text)`
    /// reads it (below 2^53); nil for any other literal.
    private static func wholeNumber(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { digits in  // contiguous bytes: no per-byte index arithmetic of String.UTF8View
            guard !digits.isEmpty, digits.count <= 15 else { return nil }
            var value: Int64 = 0
            for byte in digits {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return Double(value)
        }
    }

    /// The number as an `Int64` when its literal is an integer (no fraction, no exponent) within 64 bits; nil
    /// otherwise. Never traps: out-of-range literals give nil.
    public var int64Value: Int64? {
        guard case .number(let text) = self else { return nil }
        return Int64(text)
    }

    /// A number value from a `Double`: integral values within ±10^18 without a fraction (`5`, not `5.0`).
    public static func number(_ value: Double) -> JSONValue {
        if value.isFinite, value == value.rounded(), abs(value) < 1e18 { return .number(String(Int64(value))) }
        return .number(String(value))
    }

    /// `object`, `array`, `string`, `number`, `boolean` or `null`, as in "a JSON number".
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The JSON type with its article, as used in messages: "a string", "a number", "null", …
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
