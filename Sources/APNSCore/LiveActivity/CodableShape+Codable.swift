/// The config-file form of a shape. Simple shapes are written as Swift type spellings (`"String"`, `"Int64"`,
/// `"Date?"`, `"[URL]"`, `"[String: Double]"`, `"Optional<UUID>"`); objects and enums, which need their members,
/// as objects:
/// `{"type": "object", "name": "Driver", "fields": {"name": "String"}}`,
/// `{"type": "enum", "name": "Phase", "rawType": "String", "cases": ["preparing", "onTheWay"]}`,
/// `{"type": "optional", "wrapped": {…}}`, `{"type": "array", "element": {…}}`,
/// `{"type": "dictionary", "value": {…}}`, `{"type": "unresolved", "name": "Color"}`.
extension CodableShape: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, name, fields, rawType, cases, wrapped, element, value
    }

    /// Why a shape in the config file could not be read.
    public struct SpellingError: Error, CustomStringConvertible {
        public var spelling: String
        public var description: String {
            "unknown type '\(spelling)': write String, Bool, Int…, Double…, Date, URL, UUID, Data, [T], [String: T] "
                + "or T?, and declare structs and enums inline as {\"type\": \"object\"…} / {\"type\": \"enum\"…}"
        }
    }

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let spelling = try? single.decode(String.self) {
            guard let shape = CodableShape(spelling: spelling) else {
                throw DecodingError.dataCorruptedError(
                    in: single, debugDescription: SpellingError(spelling: spelling).description)
            }
            self = shape
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "object":
            self = .object(
                name: try container.decodeIfPresent(String.self, forKey: .name) ?? "Object",
                fields: try container.decode(FieldList.self, forKey: .fields).fields)
        case "enum":
            self = .enumeration(EnumShape(
                name: try container.decodeIfPresent(String.self, forKey: .name) ?? "Enum",
                rawType: try container.decodeIfPresent(CodableShape.self, forKey: .rawType),
                cases: try Self.decodeCases(container)))
        case "optional": self = .optional(try container.decode(CodableShape.self, forKey: .wrapped))
        case "array": self = .array(try container.decode(CodableShape.self, forKey: .element))
        case "dictionary": self = .dictionary(try container.decode(CodableShape.self, forKey: .value))
        case "unresolved": self = .unresolved(try container.decode(String.self, forKey: .name))
        default:
            guard let shape = CodableShape(spelling: type) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .type, in: container, debugDescription: SpellingError(spelling: type).description)
            }
            self = shape
        }
    }

    /// Cases as written: names, `{"name", "rawValue"}` objects; a String-raw enum's cases default their raw value
    /// to their name, and an Int-raw enum's count up from the previous one, as in Swift.
    private static func decodeCases(_ container: KeyedDecodingContainer<CodingKeys>) throws -> [EnumCase] {
        let rawType = try container.decodeIfPresent(CodableShape.self, forKey: .rawType)
        var cases = try container.decode([EnumCase].self, forKey: .cases)
        var nextInteger: Int64 = 0
        for index in cases.indices {
            switch rawType {
            case .string:
                if cases[index].rawValue == nil { cases[index].rawValue = cases[index].name }
            case .integer:
                if let written = cases[index].rawValue, let value = Int64(written) {
                    nextInteger = value
                } else {
                    cases[index].rawValue = String(nextInteger)
                }
                nextInteger += 1
            default:
                break
            }
        }
        return cases
    }

    public func encode(to encoder: any Encoder) throws {
        if let spelling = shorthandSpelling {
            var single = encoder.singleValueContainer()
            try single.encode(spelling)
            return
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .object(let name, let fields):
            try container.encode("object", forKey: .type)
            try container.encode(name, forKey: .name)
            try container.encode(FieldList(fields), forKey: .fields)
        case .enumeration(let shape):
            try container.encode("enum", forKey: .type)
            try container.encode(shape.name, forKey: .name)
            try container.encodeIfPresent(shape.rawType, forKey: .rawType)
            try container.encode(shape.cases, forKey: .cases)
        case .optional(let wrapped):
            try container.encode("optional", forKey: .type)
            try container.encode(wrapped, forKey: .wrapped)
        case .array(let element):
            try container.encode("array", forKey: .type)
            try container.encode(element, forKey: .element)
        case .dictionary(let value):
            try container.encode("dictionary", forKey: .type)
            try container.encode(value, forKey: .value)
        case .unresolved(let name):
            try container.encode("unresolved", forKey: .type)
            try container.encode(name, forKey: .name)
        default:
            try container.encode(swiftName, forKey: .type)
        }
    }

    /// The Swift spelling when it alone describes the shape (no objects, enums or unresolved names inside).
    private var shorthandSpelling: String? {
        switch self {
        case .object, .enumeration, .unresolved: nil
        case .array(let element): element.shorthandSpelling.map { "[\($0)]" }
        case .dictionary(let value): value.shorthandSpelling.map { "[String: \($0)]" }
        case .optional(let wrapped): wrapped.shorthandSpelling.map { "\($0)?" }
        default: swiftName
        }
    }

    /// Parses a Swift spelling of a standard-library or Foundation type; nil for anything else.
    public init?(spelling: String) {
        let text = spelling.trimmingSpaces
        if text.hasSuffix("?") || text.hasSuffix("!") {
            guard let wrapped = CodableShape(spelling: String(text.dropLast())) else { return nil }
            self = .optional(wrapped)
        } else if text.hasPrefix("["), text.hasSuffix("]") {
            let inner = String(text.dropFirst().dropLast())
            if let colon = inner.topLevelIndex(of: ":") {
                guard inner[..<colon].trimmingSpaces == "String",
                      let value = CodableShape(spelling: String(inner[inner.index(after: colon)...]))
                else { return nil }
                self = .dictionary(value)
            } else {
                guard let element = CodableShape(spelling: inner) else { return nil }
                self = .array(element)
            }
        } else if let open = text.firstIndex(of: "<"), text.hasSuffix(">") {
            let base = String(text[..<open])
            let arguments = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
            switch base {
            case "Optional": guard let wrapped = CodableShape(spelling: arguments) else { return nil }
                self = .optional(wrapped)
            case "Array", "Set", "ContiguousArray": guard let element = CodableShape(spelling: arguments) else { return nil }
                self = .array(element)
            case "Dictionary":
                guard let comma = arguments.topLevelIndex(of: ","), arguments[..<comma].trimmingSpaces == "String",
                      let value = CodableShape(spelling: String(arguments[arguments.index(after: comma)...]))
                else { return nil }
                self = .dictionary(value)
            default: return nil
            }
        } else if let builtin = Self.builtin(named: text) {
            self = builtin
        } else {
            return nil
        }
    }

    /// Standard-library and Foundation types with a fixed JSON form, by name (module-qualified names too).
    public static func builtin(named name: String) -> CodableShape? {
        let unqualified = name.hasPrefix("Swift.") || name.hasPrefix("Foundation.") || name.hasPrefix("CoreGraphics.")
            ? String(name[name.index(after: name.firstIndex(of: ".")!)...]) : name
        if let kind = IntegerKind(rawValue: unqualified) { return .integer(kind) }
        if let kind = FloatKind(rawValue: unqualified) { return .float(kind) }
        switch unqualified {
        case "String": return .string
        case "Bool": return .bool
        case "Float32": return .float(.float)
        case "Float64", "TimeInterval": return .float(.double)
        case "Date": return .date
        case "URL": return .url
        case "UUID": return .uuid
        case "Data": return .data
        default: return nil
        }
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }

    /// The first `character` not nested inside brackets or angle brackets.
    func topLevelIndex(of character: Character) -> Index? {
        var depth = 0
        for index in indices {
            switch self[index] {
            case "[", "<", "(": depth += 1
            case "]", ">", ")": depth -= 1
            case character where depth == 0: return index
            default: break
            }
        }
        return nil
    }
}
