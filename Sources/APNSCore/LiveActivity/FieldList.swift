import APNSJSON

/// The config-file form of a list of fields. Written as an array of
/// `{"key": "progress", "property": "progress", "shape": "Double", "required": true}`; also read from the short
/// map form `{"progress": "Double", "note": "String?"}` (keys sorted, since JSON objects carry no order).
struct FieldList: Codable, Sendable, Hashable {
    var fields: [SchemaField]

    init(_ fields: [SchemaField]) {
        self.fields = fields
    }

    init(from decoder: any Decoder) throws {
        if let map = try? decoder.container(keyedBy: AnyCodingKey.self) {
            fields = try map.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
                SchemaField(key: $0.stringValue, shape: try map.decode(CodableShape.self, forKey: $0))
            }
        } else {
            fields = try [SchemaField](from: decoder)
        }
    }

    func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
    }
}

extension SchemaField: Codable {
    private enum CodingKeys: String, CodingKey {
        case key, property, shape, required
    }

    /// `"required": false` on a non-optional shape makes it optional; the shape alone decides otherwise.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let key = try container.decode(String.self, forKey: .key)
        var shape = try container.decode(CodableShape.self, forKey: .shape)
        if try container.decodeIfPresent(Bool.self, forKey: .required) == false, !shape.isOptional {
            shape = .optional(shape)
        }
        self.init(key: key, property: try container.decodeIfPresent(String.self, forKey: .property), shape: shape)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        if property != key { try container.encode(property, forKey: .property) }
        try container.encode(shape, forKey: .shape)
        try container.encode(isRequired, forKey: .required)
    }
}

extension ActivitySchema: Codable {
    private enum CodingKeys: String, CodingKey {
        case attributesType, attributes, contentState, contentStateType, source, attributesChecked, contentStateChecked
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            attributesType: try container.decode(String.self, forKey: .attributesType),
            attributes: try container.decodeIfPresent(FieldList.self, forKey: .attributes)?.fields ?? [],
            contentState: try container.decode(FieldList.self, forKey: .contentState).fields,
            contentStateType: try container.decodeIfPresent(String.self, forKey: .contentStateType) ?? "ContentState",
            source: try container.decodeIfPresent(String.self, forKey: .source),
            attributesChecked: try container.decodeIfPresent(Bool.self, forKey: .attributesChecked) ?? true,
            contentStateChecked: try container.decodeIfPresent(Bool.self, forKey: .contentStateChecked) ?? true)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(attributesType, forKey: .attributesType)
        try container.encode(FieldList(attributes), forKey: .attributes)
        try container.encode(FieldList(contentState), forKey: .contentState)
        try container.encode(contentStateType, forKey: .contentStateType)
        try container.encodeIfPresent(source, forKey: .source)
        if !attributesChecked { try container.encode(false, forKey: .attributesChecked) }
        if !contentStateChecked { try container.encode(false, forKey: .contentStateChecked) }
    }
}
