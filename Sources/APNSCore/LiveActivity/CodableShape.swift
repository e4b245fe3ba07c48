/// What a Swift type looks like to the device's `JSONDecoder` (default strategies only: ActivityKit "always
/// decodes JSON payloads for Live Activity updates using its default encoding strategies", A-LA,
/// A-JSONDEC). Derived from the app's Swift source by `ActivitySourceParser`, or declared in the config file.
public indirect enum CodableShape: Sendable, Hashable {
    /// `String`: a JSON string.
    case string
    /// `Bool`: JSON `true`/`false` only (`0`/`1` are a type mismatch).
    case bool
    /// A fixed-width integer: a JSON number that is integral and fits the type.
    case integer(IntegerKind)
    /// `Double`, `Float`, `CGFloat`, `Decimal`, …: any JSON number.
    case float(FloatKind)
    /// `Date` with the default `.deferredToDate` strategy: a JSON number of **seconds since 2001-01-01**
    /// (A-JSONDEC).
    case date
    /// `URL`: a JSON string that parses as a URL.
    case url
    /// `UUID`: a JSON string in the 8-4-4-4-12 hex form.
    case uuid
    /// `Data` with the default `.base64` strategy: a base64 JSON string.
    case data
    /// `[T]` / `Array<T>` / `Set<T>`: a JSON array.
    case array(CodableShape)
    /// `[String: T]`: a JSON object whose values are `T`.
    case dictionary(CodableShape)
    /// A `Codable` struct or class with synthesized conformance: a JSON object with these fields.
    case object(name: String, fields: [SchemaField])
    /// A `Codable` enum.
    case enumeration(EnumShape)
    /// `T?` / `Optional<T>`: the key may be absent or `null`.
    case optional(CodableShape)
    /// A type the mock could not resolve (reported as a problem when the schema was derived); any JSON value is
    /// accepted for it.
    case unresolved(String)

    /// Whether a struct property of this shape may be missing from the JSON (synthesized `Decodable` uses
    /// `decodeIfPresent` for optionals).
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// The Swift spelling, for messages: `Int`, `[String: Date]`, `Phase?`.
    public var swiftName: String {
        switch self {
        case .string: "String"
        case .bool: "Bool"
        case .integer(let kind): kind.rawValue
        case .float(let kind): kind.rawValue
        case .date: "Date"
        case .url: "URL"
        case .uuid: "UUID"
        case .data: "Data"
        case .array(let element): "[\(element.swiftName)]"
        case .dictionary(let value): "[String: \(value.swiftName)]"
        case .object(let name, _): name
        case .enumeration(let shape): shape.name
        case .optional(let wrapped): "\(wrapped.swiftName)?"
        case .unresolved(let name): name
        }
    }
}

/// The fixed-width integer types `JSONDecoder` decodes, each with its range.
public enum IntegerKind: String, Sendable, Hashable, Codable, CaseIterable {
    case int = "Int", int8 = "Int8", int16 = "Int16", int32 = "Int32", int64 = "Int64"
    case uint = "UInt", uint8 = "UInt8", uint16 = "UInt16", uint32 = "UInt32", uint64 = "UInt64"

    /// Whether `text` (a JSON number literal) decodes as this type: integral (`3`, `3.0` and `3e0` all count, as
    /// in Foundation's `JSONDecoder`) and within range. Platform `Int`/`UInt` are taken as 64-bit, as on every
    /// device that runs ActivityKit.
    public func accepts(numberText text: String) -> Bool {
        if let exact = Int64(text) { return fits(exact) }
        if UInt64(text) != nil { return self == .uint64 || self == .uint }
        guard let value = Double(text), value.isFinite, value.rounded() == value else { return false }
        if value < 0 { return Int64(exactly: value).map(fits) ?? false }
        guard let unsigned = UInt64(exactly: value) else { return false }
        if let signed = Int64(exactly: unsigned) { return fits(signed) }
        return self == .uint64 || self == .uint
    }

    private func fits(_ value: Int64) -> Bool {
        switch self {
        case .int, .int64: true
        case .int8: Int8(exactly: value) != nil
        case .int16: Int16(exactly: value) != nil
        case .int32: Int32(exactly: value) != nil
        case .uint, .uint64: value >= 0
        case .uint8: UInt8(exactly: value) != nil
        case .uint16: UInt16(exactly: value) != nil
        case .uint32: UInt32(exactly: value) != nil
        }
    }
}

/// The floating-point and decimal types `JSONDecoder` decodes from any JSON number.
public enum FloatKind: String, Sendable, Hashable, Codable, CaseIterable {
    case double = "Double", float = "Float", float16 = "Float16", cgFloat = "CGFloat", decimal = "Decimal"
}
