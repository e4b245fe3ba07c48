/// `JSONValue` encodes as the JSON it holds (so activity snapshots show their state as plain JSON in the admin API)
/// and decodes from any JSON. Through `Codable` a number's literal is re-formatted by the coder: integers within 64
/// bits stay exact, other numbers go through `Double`.
extension JSONValue: Codable {
    /// Tries the kinds most common in this project's documents first (strings, integers, objects), because with
    /// `JSONDecoder` every wrong guess costs a thrown error.
    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let text = try? single.decode(String.self) {
            self = .string(text)
        } else if let integer = try? single.decode(Int64.self) {
            self = .number(String(integer))
        } else if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            self = .object(try object.allKeys.map {
                JSONMember($0.stringValue, try object.decode(JSONValue.self, forKey: $0))
            })
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let unsigned = try? single.decode(UInt64.self) {
            self = .number(String(unsigned))
        } else {
            self = .number(String(try single.decode(Double.self)))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let text):
            var single = encoder.singleValueContainer()
            if let integer = Int64(text) {
                try single.encode(integer)
            } else if let unsigned = UInt64(text) {
                try single.encode(unsigned)
            } else {
                try single.encode(Double(text) ?? 0)
            }
        case .string(let text):
            var single = encoder.singleValueContainer()
            try single.encode(text)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .object(let members):
            var object = encoder.container(keyedBy: AnyCodingKey.self)
            for member in members { try object.encode(member.value, forKey: AnyCodingKey(member.key)) }
        }
    }
}

/// A coding key for arbitrary strings (JSON object keys).
public struct AnyCodingKey: CodingKey, Sendable {
    public var stringValue: String
    public var intValue: Int? { nil }

    public init(_ string: String) { stringValue = string }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { return nil }
}
