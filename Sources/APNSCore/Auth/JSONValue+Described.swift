import APNSJSON

extension JSONValue {
    /// A short description for explanations: `the number 5`, `the number 1.5`, `the string "x"`.
    var described: String {
        switch self {
        case .number:
            if let integer = int64Value { return "the number \(integer)" }
            return "the number \(doubleValue ?? .nan)"
        case .string(let value): return "the string \"\(value.prefix(40))\""
        case .bool(let value): return "the boolean \(value)"
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
