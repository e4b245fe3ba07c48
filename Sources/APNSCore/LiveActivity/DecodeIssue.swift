/// One finding from decoding a JSON value against a schema the way the device's `JSONDecoder` would.
public struct DecodeIssue: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A required key is absent: `keyNotFound`, the update is dropped.
        case missingKey
        /// The value has the wrong JSON type: `typeMismatch`, the update is dropped.
        case typeMismatch
        /// `null` for a non-optional field: `valueNotFound`, the update is dropped.
        case nullValue
        /// A string or number that is not one of the enum's raw values (or not a case name): `dataCorrupted`.
        case invalidEnumValue
        /// The right JSON type but not decodable: a URL or UUID that does not parse, an integer that is
        /// fractional or out of range, Data that is not base64: `dataCorrupted`.
        case invalidValue
        /// A key the type does not declare. Harmless: synthesized `Decodable` reads only its own keys.
        case unknownKey
        /// A `Date` that decodes, but decades in the future because the sender used Unix time.
        case unixEpochDate
    }

    public var kind: Kind
    /// Where in the payload: `content-state.driver.name`, `content-state.stops[2]`.
    public var path: String
    public var message: String

    public init(kind: Kind, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// Whether this issue makes decoding fail (and so the device drop the push).
    public var isFatal: Bool {
        switch kind {
        case .missingKey, .typeMismatch, .nullValue, .invalidEnumValue, .invalidValue: true
        case .unknownKey, .unixEpochDate: false
        }
    }
}
