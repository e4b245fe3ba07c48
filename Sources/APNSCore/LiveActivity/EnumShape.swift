import APNSJSON

/// A `Codable` enum as synthesized `Decodable` reads it.
/// - With a raw type (`enum Phase: String, Codable`): the JSON value is the raw value of one case.
/// - Without a raw type (Swift 5.5+ synthesis): an object with exactly one key, the case name, whose value is an
///   object holding the associated values (`{"delivered": {}}`, `{"delayed": {"minutes": 5}}`, unlabelled
///   values under `_0`, `_1`, …).
public struct EnumShape: Sendable, Hashable {
    public var name: String
    /// `.string`, `.integer(_)` or `.float(_)`; nil when the enum has no raw type.
    public var rawType: CodableShape?
    public var cases: [EnumCase]

    public init(name: String, rawType: CodableShape?, cases: [EnumCase]) {
        self.name = name
        self.rawType = rawType
        self.cases = cases
    }

    /// The case whose raw value equals `value`, if any (numbers compare by value, so `2.0` matches `2`).
    public func caseMatching(rawValue value: JSONValue) -> EnumCase? {
        switch value {
        case .string(let text):
            return cases.first { $0.rawValue == text }
        case .number(let text):
            guard let number = Double(text) else { return nil }
            return cases.first { $0.rawValue.flatMap(Double.init) == number }
        default:
            return nil
        }
    }
}

/// One case of an enum: its name, its raw value (as text) and, for enums without a raw type, its associated
/// values as fields.
public struct EnumCase: Sendable, Hashable, Codable {
    public var name: String
    public var rawValue: String?
    public var associatedValues: [SchemaField]

    public init(name: String, rawValue: String? = nil, associatedValues: [SchemaField] = []) {
        self.name = name
        self.rawValue = rawValue
        self.associatedValues = associatedValues
    }

    private enum CodingKeys: String, CodingKey {
        case name, rawValue, associatedValues
    }

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            self.init(name: name)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            rawValue: try container.decodeIfPresent(String.self, forKey: .rawValue),
            associatedValues: try container.decodeIfPresent(FieldList.self, forKey: .associatedValues)?.fields ?? []
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(rawValue, forKey: .rawValue)
        if !associatedValues.isEmpty { try container.encode(FieldList(associatedValues), forKey: .associatedValues) }
    }
}
