extension JSONValue {
    /// A short description for explanations: `the number 5`, `the string "x"`.
    var described: String {
        switch self {
        case .integer(let value): "the number \(value)"
        case .number(let value): "the number \(value)"
        case .string(let value): "the string \"\(value.prefix(40))\""
        case .bool(let value): "the boolean \(value)"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
