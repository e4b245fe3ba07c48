import APNSJSON

/// Decodes a JSON value against a schema as Swift's synthesized `Decodable` with `JSONDecoder`'s default
/// strategies would, and reports every problem rather than stopping at the first (the device stops at the first
/// fatal one, in declaration order, which `firstFatal` returns). Source: A-LA ("the system always decodes JSON
/// payloads for Live Activity updates using its default encoding strategies"), A-JSONDEC.
public enum ContentStateChecker {
    /// A `Date` value at or beyond this many seconds after 2001 (2032-09-09) is taken to be a Unix timestamp sent
    /// by mistake: Live Activities last hours, so honest reference-date values are far smaller.
    public static let unixEpochDateThreshold: Double = 1_000_000_000

    /// A `Date` value at or beyond this is taken to be Unix milliseconds.
    public static let millisecondDateThreshold: Double = 100_000_000_000

    /// Checks an object against a struct's fields (`content-state` against `ContentState`, `attributes` against
    /// the attributes type).
    public static func check(_ value: JSONValue, fields: [SchemaField], path: String) -> [DecodeIssue] {
        check(value, shape: .object(name: "", fields: fields), path: path)
    }

    /// The issue the device's decoder would throw, if any.
    public static func firstFatal(_ issues: [DecodeIssue]) -> DecodeIssue? {
        issues.first(where: \.isFatal)
    }

    /// Checks any value against any shape.
    public static func check(_ value: JSONValue, shape: CodableShape, path: String) -> [DecodeIssue] {
        var issues: [DecodeIssue] = []
        check(value, shape: shape, path: DecodePath(path), into: &issues)
        return issues
    }

    /// A value's path (`content-state.eta`, `content-state.stops[2]`), written out only when an issue names it or
    /// a nested value extends it: a content-state whose fields all decode costs no string per field.
    private struct DecodePath {
        let parent: String
        let step: Step

        enum Step {
            case none, key(String), index(Int)
        }

        init(_ text: String) {
            parent = text
            step = .none
        }

        init(_ parent: String, key: String) {
            self.parent = parent
            step = .key(key)
        }

        init(_ parent: String, index: Int) {
            self.parent = parent
            step = .index(index)
        }

        var text: String {
            switch step {
            case .none: parent
            case .key(let key): "\(parent).\(key)"
            case .index(let index): "\(parent)[\(index)]"
            }
        }
    }

    private static func check(_ value: JSONValue, shape: CodableShape, path: DecodePath, into issues: inout [DecodeIssue]) {
        if case .null = value {
            if !shape.isOptional, !isUnresolved(shape) {
                let path = path.text
                issues.append(DecodeIssue(kind: .nullValue, path: path, message:
                    "\(path) is null but \(shape.swiftName) is not optional: JSONDecoder throws valueNotFound; send a "
                        + "\(shape.swiftName) or make the property optional"))
            }
            return
        }
        switch shape {
        case .optional(let wrapped):
            check(value, shape: wrapped, path: path, into: &issues)
        case .unresolved:
            return
        case .string:
            guard case .string = value else { return issues.append(mismatch(value, shape: shape, path: path.text)) }
        case .bool:
            if case .bool = value { return }
            issues.append(mismatch(value, shape: shape, path: path.text))
        case .integer(let kind):
            guard case .number(let text) = value else { return issues.append(mismatch(value, shape: shape, path: path.text)) }
            if !kind.accepts(numberText: text) {
                let path = path.text
                issues.append(DecodeIssue(kind: .invalidValue, path: path, message:
                    "\(path) is \(text), which does not fit in \(kind.rawValue) (it must be a whole number in range): "
                        + "JSONDecoder throws dataCorrupted"))
            }
        case .float:
            guard case .number = value else { return issues.append(mismatch(value, shape: shape, path: path.text)) }
        case .date:
            guard case .number(let text) = value else {
                var issue = mismatch(value, shape: shape, path: path.text)
                if case .string = value {
                    issue.message += "; with the default .deferredToDate strategy a Date is a number of seconds since "
                        + "2001-01-01, not an ISO 8601 string"
                }
                return issues.append(issue)
            }
            if let seconds = Double(text), seconds >= unixEpochDateThreshold,
               let issue = epochMistake(seconds: seconds, path: path.text)
            {
                issues.append(issue)
            }
        case .url:
            guard case .string(let text) = value else { return issues.append(mismatch(value, shape: shape, path: path.text)) }
            if text.isEmpty {
                let path = path.text
                issues.append(DecodeIssue(kind: .invalidValue, path: path, message:
                    "\(path) is \"\(text)\", which is not a valid URL: JSONDecoder throws dataCorrupted"))
            }
        case .uuid:
            guard case .string(let text) = value else { return issues.append(mismatch(value, shape: shape, path: path.text)) }
            if !isUUID(text) {
                let path = path.text
                issues.append(DecodeIssue(kind: .invalidValue, path: path, message:
                    "\(path) is \"\(text)\", which is not a UUID (8-4-4-4-12 hex digits): JSONDecoder throws "
                        + "dataCorrupted"))
            }
        case .data:
            guard case .string(let text) = value else { return issues.append(mismatch(value, shape: shape, path: path.text)) }
            if !isBase64(text) {
                let path = path.text
                issues.append(DecodeIssue(kind: .invalidValue, path: path, message:
                    "\(path) is not base64, which Data requires with the default .base64 strategy: JSONDecoder throws "
                        + "dataCorrupted"))
            }
        case .array(let element):
            guard case .array(let elements) = value else { return issues.append(mismatch(value, shape: shape, path: path.text)) }
            let path = path.text
            for (index, item) in elements.enumerated() {
                check(item, shape: element, path: DecodePath(path, index: index), into: &issues)
            }
        case .dictionary(let valueShape):
            guard case .object(let members) = value else { return issues.append(mismatch(value, shape: shape, path: path.text)) }
            let path = path.text
            for member in members {
                check(member.value, shape: valueShape, path: DecodePath(path, key: member.key), into: &issues)
            }
        case .object(_, let fields):
            guard case .object(let members) = value else { return issues.append(mismatch(value, shape: shape, path: path.text)) }
            checkMembers(members, fields: fields, typeName: shape.swiftName, path: path.text, into: &issues)
        case .enumeration(let enumShape):
            checkEnum(value, shape: enumShape, path: path, into: &issues)
        }
    }

    private static func checkMembers(
        _ members: [JSONMember], fields: [SchemaField], typeName: String, path: String, into issues: inout [DecodeIssue]
    ) {
        for field in fields {
            guard let member = members.first(where: { $0.key == field.key }) else {
                if field.isRequired {
                    issues.append(DecodeIssue(kind: .missingKey, path: "\(path).\(field.key)", message:
                        "missing key \"\(field.key)\" (\(field.shape.swiftName)) at \(path): synthesized Decodable "
                            + "requires it even when the property has a default value; JSONDecoder throws keyNotFound"))
                }
                continue
            }
            check(member.value, shape: field.shape, path: DecodePath(path, key: field.key), into: &issues)
        }
        // Searched, not hashed into a set built for every object checked: a struct has a handful of fields.
        for member in members where !fields.contains(where: { $0.key == member.key }) {
            let typeText = typeName.isEmpty ? "" : " \(typeName)"
            issues.append(DecodeIssue(kind: .unknownKey, path: "\(path).\(member.key)", message:
                "\(path).\(member.key) is not a key of\(typeText) (declared: \(fields.map(\.key).joined(separator: ", "))); "
                    + "the device ignores it. A typo of a declared key?"))
        }
    }

    private static func checkEnum(_ value: JSONValue, shape: EnumShape, path: DecodePath, into issues: inout [DecodeIssue]) {
        if let rawType = shape.rawType {
            let before = issues.count
            check(value, shape: rawType, path: path, into: &issues)
            guard issues.count == before else { return }
            if shape.caseMatching(rawValue: value) == nil {
                let path = path.text
                let allowed = shape.cases.compactMap { $0.rawValue.map { rawType == .string ? "\"\($0)\"" : $0 } }
                issues.append(DecodeIssue(kind: .invalidEnumValue, path: path, message:
                    "\(path) is \(value.compactText), which is not a raw value of \(shape.name) "
                        + "(\(allowed.joined(separator: ", "))): JSONDecoder throws dataCorrupted"))
            }
            return
        }
        let names = shape.cases.map(\.name)
        let path = path.text
        guard case .object(let members) = value, members.count == 1, let member = members.first else {
            issues.append(DecodeIssue(kind: .typeMismatch, path: path, message:
                "\(path) is \(value.compactText) but \(shape.name) has no raw type, so synthesized Decodable expects an "
                    + "object with exactly one key naming the case, e.g. {\"\(names.first ?? "case")\":{}}"))
            return
        }
        guard let enumCase = shape.cases.first(where: { $0.name == member.key }) else {
            issues.append(DecodeIssue(kind: .invalidEnumValue, path: path, message:
                "\(path) names case \"\(member.key)\", which \(shape.name) does not have (\(names.joined(separator: ", "))): "
                    + "JSONDecoder throws dataCorrupted"))
            return
        }
        check(member.value, shape: .object(name: "\(shape.name).\(enumCase.name)", fields: enumCase.associatedValues),
              path: DecodePath(path, key: enumCase.name), into: &issues)
    }

    private static func mismatch(_ value: JSONValue, shape: CodableShape, path: String) -> DecodeIssue {
        DecodeIssue(kind: .typeMismatch, path: path, message:
            "\(path) is \(value.typeDescription) but \(shape.swiftName) expects \(expectedJSON(shape)): "
                + "JSONDecoder throws typeMismatch")
    }

    private static func expectedJSON(_ shape: CodableShape) -> String {
        switch shape {
        case .string, .url, .uuid, .data: "a string"
        case .bool: "true or false"
        case .integer, .float: "a number"
        case .date: "a number (seconds since 2001-01-01)"
        case .array: "an array"
        case .dictionary, .object: "an object"
        case .enumeration(let enumShape): enumShape.rawType.map(expectedJSON) ?? "an object"
        case .optional(let wrapped): expectedJSON(wrapped)
        case .unresolved: "anything"
        }
    }

    private static func isUnresolved(_ shape: CodableShape) -> Bool {
        if case .unresolved = shape { return true }
        return false
    }

    /// A Date given as Unix seconds or milliseconds decodes decades (or millennia) in the future.
    /// Source: home-assistant/iOS PR #4677, urbanairship/ios-library#411 (A-JSONDEC).
    static func epochMistake(seconds: Double, path: String) -> DecodeIssue? {
        guard seconds >= unixEpochDateThreshold else { return nil }
        let decoded = UTCDateText.format(unixSeconds: seconds + UTCDateText.referenceDateOffset)
        let offset = Int64(UTCDateText.referenceDateOffset)
        if seconds >= millisecondDateThreshold {
            let fixed = Int64(saturating: seconds / 1000) &- offset
            return DecodeIssue(kind: .unixEpochDate, path: path, message:
                "\(path) decodes as \(decoded): it looks like Unix milliseconds, but ActivityKit reads seconds since "
                    + "2001-01-01; divide by 1000 and subtract \(offset) (send \(fixed))")
        }
        let fixed = Int64(saturating: seconds) &- offset
        return DecodeIssue(kind: .unixEpochDate, path: path, message:
            "\(path): this date decodes as \(decoded); ActivityKit reads seconds since 2001-01-01, not since 1970: "
                + "subtract \(offset) (send \(fixed)), or encode Date with timeIntervalSinceReferenceDate")
    }

    private static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
        return groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    private static func isBase64(_ text: String) -> Bool {
        guard text.utf8.count % 4 == 0 else { return false }
        let padding = text.reversed().prefix(while: { $0 == "=" }).count
        guard padding <= 2 else { return false }
        return text.dropLast(padding).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/") }
    }
}
