import APNSJSON
import APNSCore
import Testing

/// Decoding content-state the way the device's `JSONDecoder` does.
@Suite struct ContentStateCheckerTests {
    static let phase = CodableShape.enumeration(EnumShape(name: "Phase", rawType: .string, cases: [
        EnumCase(name: "preparing", rawValue: "preparing"), EnumCase(name: "onTheWay", rawValue: "on_the_way"),
    ]))
    static let level = CodableShape.enumeration(EnumShape(name: "Level", rawType: .integer(.int), cases: [
        EnumCase(name: "low", rawValue: "1"), EnumCase(name: "high", rawValue: "2"),
    ]))
    static let period = CodableShape.enumeration(EnumShape(name: "Period", rawType: nil, cases: [
        EnumCase(name: "first"),
        EnumCase(name: "overtime", associatedValues: [SchemaField(key: "minutes", shape: .integer(.int))]),
    ]))

    static let fields: [SchemaField] = [
        SchemaField(key: "progress", shape: .float(.double)),
        SchemaField(key: "eta", shape: .date),
        SchemaField(key: "note", shape: .optional(.string)),
        SchemaField(key: "stops", shape: .integer(.uint8)),
        SchemaField(key: "live", shape: .bool),
        SchemaField(key: "link", shape: .url),
        SchemaField(key: "id", shape: .uuid),
        SchemaField(key: "tags", shape: .array(.string)),
        SchemaField(key: "scores", shape: .dictionary(.integer(.int))),
        SchemaField(key: "phase", shape: phase),
        SchemaField(key: "level", shape: level),
        SchemaField(key: "period", shape: period),
        SchemaField(key: "courier", shape: .optional(.object(name: "Courier", fields: [SchemaField(key: "name", shape: .string)]))),
        SchemaField(key: "tint", shape: .unresolved("Color")),
    ]

    /// A valid content-state; each case below replaces or removes one member.
    static let valid: [JSONMember] = [
        JSONMember("progress", .number("0.5")), JSONMember("eta", .number("800000000")), JSONMember("stops", .number("3")),
        JSONMember("live", .bool(true)), JSONMember("link", .string("https://example.com/t/1")),
        JSONMember("id", .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")), JSONMember("tags", .array([.string("a")])),
        JSONMember("scores", .object([JSONMember("home", .number("2"))])), JSONMember("phase", .string("on_the_way")),
        JSONMember("level", .number("2")), JSONMember("period", .object([JSONMember("first", .object([]))])),
        JSONMember("tint", .string("#ff0000")),
    ]

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var key: String
        var value: JSONValue?
        var kind: DecodeIssue.Kind?
        var path: String
        var phrase: String = ""
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "missing required key", key: "progress", value: nil, kind: .missingKey, path: "content-state.progress",
             phrase: "missing key \"progress\""),
        Case(name: "optional may be absent", key: "note", value: nil, kind: nil, path: ""),
        Case(name: "optional may be null", key: "note", value: .null, kind: nil, path: ""),
        Case(name: "null for non-optional", key: "progress", value: .null, kind: .nullValue, path: "content-state.progress"),
        Case(name: "string for number", key: "progress", value: .string("0.5"), kind: .typeMismatch, path: "content-state.progress",
             phrase: "is a string but Double expects a number"),
        Case(name: "number for Bool", key: "live", value: .number("1"), kind: .typeMismatch, path: "content-state.live"),
        Case(name: "fraction for integer", key: "stops", value: .number("2.5"), kind: .invalidValue, path: "content-state.stops"),
        Case(name: "integral float for integer", key: "stops", value: .number("2.0"), kind: nil, path: ""),
        Case(name: "out of range integer", key: "stops", value: .number("300"), kind: .invalidValue, path: "content-state.stops",
             phrase: "does not fit in UInt8"),
        Case(name: "negative for unsigned", key: "stops", value: .number("-1"), kind: .invalidValue, path: "content-state.stops"),
        Case(name: "ISO string for Date", key: "eta", value: .string("2026-01-01T00:00:00Z"), kind: .typeMismatch,
             path: "content-state.eta", phrase: "not an ISO 8601 string"),
        Case(name: "Unix seconds for Date", key: "eta", value: .number("1767225600"), kind: .unixEpochDate,
             path: "content-state.eta", phrase: "this date decodes as 2057-01-01T00:00:00Z; ActivityKit reads seconds since 2001-01-01, not since 1970: subtract 978307200 (send 788918400)"),
        Case(name: "Unix milliseconds for Date", key: "eta", value: .number("1767225600000"), kind: .unixEpochDate,
             path: "content-state.eta", phrase: "milliseconds"),
        Case(name: "empty URL", key: "link", value: .string(""), kind: .invalidValue, path: "content-state.link"),
        Case(name: "bad UUID", key: "id", value: .string("not-a-uuid"), kind: .invalidValue, path: "content-state.id"),
        Case(name: "wrong element type", key: "tags", value: .array([.string("a"), .number("1")]), kind: .typeMismatch,
             path: "content-state.tags[1]"),
        Case(name: "wrong dictionary value", key: "scores", value: .object([JSONMember("away", .string("x"))]),
             kind: .typeMismatch, path: "content-state.scores.away"),
        Case(name: "not a raw value", key: "phase", value: .string("delivered"), kind: .invalidEnumValue,
             path: "content-state.phase", phrase: "\"preparing\", \"on_the_way\""),
        Case(name: "case name instead of raw value", key: "phase", value: .string("onTheWay"), kind: .invalidEnumValue,
             path: "content-state.phase"),
        Case(name: "int raw value matches numerically", key: "level", value: .number("1.0"), kind: nil, path: ""),
        Case(name: "int raw value not a case", key: "level", value: .number("3"), kind: .invalidEnumValue, path: "content-state.level"),
        Case(name: "no-raw enum as string", key: "period", value: .string("first"), kind: .typeMismatch,
             path: "content-state.period", phrase: "{\"first\":{}}"),
        Case(name: "no-raw enum unknown case", key: "period", value: .object([JSONMember("third", .object([]))]),
             kind: .invalidEnumValue, path: "content-state.period"),
        Case(name: "associated value missing", key: "period", value: .object([JSONMember("overtime", .object([]))]),
             kind: .missingKey, path: "content-state.period.overtime.minutes"),
        Case(name: "nested object field wrong", key: "courier", value: .object([JSONMember("name", .bool(false))]),
             kind: .typeMismatch, path: "content-state.courier.name"),
        Case(name: "unresolved accepts anything", key: "tint", value: .array([]), kind: nil, path: ""),
        Case(name: "unknown key is noted", key: "progres", value: .number("1"), kind: .unknownKey, path: "content-state.progres",
             phrase: "the device ignores it"),
    ]

    @Test(arguments: cases)
    func decodesLikeJSONDecoder(_ testCase: Case) {
        var members = Self.valid.filter { $0.key != testCase.key }
        if let value = testCase.value { members.append(JSONMember(testCase.key, value)) }
        let issues = ContentStateChecker.check(.object(members), fields: Self.fields, path: "content-state")
        guard let kind = testCase.kind else {
            #expect(issues.isEmpty, "\(issues)")
            return
        }
        #expect(issues.count == 1, "\(issues)")
        let issue = issues.first
        #expect(issue?.kind == kind)
        #expect(issue?.path == testCase.path)
        if !testCase.phrase.isEmpty {
            #expect(issue?.message.contains(testCase.phrase) == true, "\(issue?.message ?? "")")
        }
    }

    @Test func validStateHasNoIssues() {
        #expect(ContentStateChecker.check(.object(Self.valid), fields: Self.fields, path: "content-state").isEmpty)
    }

    @Test func firstFatalFollowsDeclarationOrderAndSkipsNotes() {
        let state = JSONValue.object([JSONMember("extra", .number("1"))])
        let issues = ContentStateChecker.check(state, fields: Self.fields, path: "content-state")
        #expect(ContentStateChecker.firstFatal(issues)?.path == "content-state.progress")
        #expect(issues.contains { $0.kind == .unknownKey && !$0.isFatal })
    }

    @Test func nonObjectContentStateIsATypeMismatch() {
        let issues = ContentStateChecker.check(.array([]), fields: Self.fields, path: "content-state")
        #expect(issues.map(\.kind) == [.typeMismatch])
    }
}
