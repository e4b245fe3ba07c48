/// One value of a JWT header or claims object, as far as authentication cares: the type matters
/// (an integer `iat` vs a string `iat`), nested values do not.
enum JSONScalar: Decodable, Hashable {
    case integer(Int64)
    case number(Double)
    case string(String)
    case bool(Bool)
    case null
    case other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else {
            self = .other
        }
    }

    /// A short description for explanations: `the number 5`, `the string "x"`.
    var described: String {
        switch self {
        case .integer(let value): "the number \(value)"
        case .number(let value): "the number \(value)"
        case .string(let value): "the string \"\(value.prefix(40))\""
        case .bool(let value): "the boolean \(value)"
        case .null: "null"
        case .other: "an object or array"
        }
    }
}
