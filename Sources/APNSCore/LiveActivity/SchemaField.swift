/// One coded property of a struct: the JSON key it is read from, the Swift property it fills and its shape.
/// Only properties that synthesized `Decodable` actually decodes become fields: `let x = 1` and computed
/// properties are not coded; `var x = 1` still is, and its key is required (Swift's synthesized `init(from:)`
/// ignores default values). Source: Swift's Codable synthesis rules (SE-0166), A-JSONDEC.
public struct SchemaField: Sendable, Hashable {
    /// The JSON key (the `CodingKeys` raw value when the type declares one).
    public var key: String
    /// The Swift property name.
    public var property: String
    public var shape: CodableShape

    public init(key: String, property: String? = nil, shape: CodableShape) {
        self.key = key
        self.property = property ?? key
        self.shape = shape
    }

    /// Whether decoding fails when the key is absent: every non-optional field.
    public var isRequired: Bool { !shape.isOptional }
}
