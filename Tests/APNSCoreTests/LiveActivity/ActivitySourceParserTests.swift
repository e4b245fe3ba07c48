import APNSCore
import ActivitySourceParser
import Foundation
import Testing

/// The fixture corpus parsed as a folder: which types become schemas and what shape each field gets.
@Suite struct ActivitySourceParserTests {
    enum Part: String, Sendable {
        case attributes, contentState
    }

    struct FieldCase: Sendable, CustomStringConvertible {
        var type: String
        var part: Part
        var key: String
        /// Swift spelling of the expected shape (see `CodableShape(spelling:)`), or nil to check `shape` instead.
        var spelling: String?
        var shape: CodableShape?
        var property: String?
        var description: String { "\(type).\(part.rawValue).\(key)" }

        init(_ type: String, _ part: Part, _ key: String, _ spelling: String, property: String? = nil) {
            self.type = type
            self.part = part
            self.key = key
            self.spelling = spelling
            self.property = property
        }

        init(_ type: String, _ part: Part, _ key: String, shape: CodableShape) {
            self.type = type
            self.part = part
            self.key = key
            self.shape = shape
        }

        var expected: CodableShape? { shape ?? spelling.flatMap(CodableShape.init(spelling:)) }
    }

    static let phase = CodableShape.enumeration(EnumShape(name: "Phase", rawType: .string, cases: [
        EnumCase(name: "preparing", rawValue: "preparing"), EnumCase(name: "onTheWay", rawValue: "on_the_way"),
        EnumCase(name: "delivered", rawValue: "delivered"),
    ]))
    static let courier = CodableShape.optional(.object(name: "Courier", fields: [
        SchemaField(key: "name", shape: .string), SchemaField(key: "vehicle", shape: .optional(.string)),
        SchemaField(key: "rating", shape: .float(.float)),
    ]))
    static let period = CodableShape.enumeration(EnumShape(name: "Period", rawType: nil, cases: [
        EnumCase(name: "first"), EnumCase(name: "second"),
        EnumCase(name: "overtime", associatedValues: [SchemaField(key: "minutes", shape: .integer(.int))]),
        EnumCase(name: "penalties", associatedValues: [
            SchemaField(key: "_0", shape: .integer(.int)), SchemaField(key: "_1", shape: .integer(.int)),
        ]),
    ]))
    static let severity = CodableShape.enumeration(EnumShape(name: "Severity", rawType: .integer(.int), cases: [
        EnumCase(name: "low", rawValue: "1"), EnumCase(name: "medium", rawValue: "2"),
        EnumCase(name: "high", rawValue: "10"), EnumCase(name: "critical", rawValue: "11"),
    ]))
    static let lap = CodableShape.array(.object(name: "Lap", fields: [
        SchemaField(key: "index", shape: .integer(.int)), SchemaField(key: "duration", shape: .float(.double)),
    ]))

    static let fields: [FieldCase] = [
        // Nested ContentState, defaults, optionals, enum and struct declared beside it.
        FieldCase("DeliveryAttributes", .contentState, "phase", shape: phase),
        FieldCase("DeliveryAttributes", .contentState, "progress", "Double"),
        FieldCase("DeliveryAttributes", .contentState, "etaDate", "Date"),
        FieldCase("DeliveryAttributes", .contentState, "courier", shape: courier),
        FieldCase("DeliveryAttributes", .contentState, "note", "String?"),
        FieldCase("DeliveryAttributes", .contentState, "trackingURL", "URL"),
        FieldCase("DeliveryAttributes", .contentState, "stopsLeft", "Int"),
        FieldCase("DeliveryAttributes", .contentState, "observed", "Int"),
        FieldCase("DeliveryAttributes", .attributes, "orderID", "String"),
        FieldCase("DeliveryAttributes", .attributes, "restaurantName", "String"),
        FieldCase("DeliveryAttributes", .attributes, "createdAt", "Date"),
        // typealias ContentState = State, CodingKeys renames, every integer and floating type.
        FieldCase("WorkoutAttributes", .contentState, "hr", "UInt8", property: "heartRate"),
        FieldCase("WorkoutAttributes", .contentState, "elevation", "Int16"),
        FieldCase("WorkoutAttributes", .contentState, "steps", "Int32"),
        FieldCase("WorkoutAttributes", .contentState, "calories", "Int64"),
        FieldCase("WorkoutAttributes", .contentState, "lap_count", "UInt", property: "lapCount"),
        FieldCase("WorkoutAttributes", .contentState, "splitMillis", "UInt16"),
        FieldCase("WorkoutAttributes", .contentState, "totalMillis", "UInt32"),
        FieldCase("WorkoutAttributes", .contentState, "seed", "UInt64"),
        FieldCase("WorkoutAttributes", .contentState, "offset", "Int8"),
        FieldCase("WorkoutAttributes", .contentState, "pace", "Float"),
        FieldCase("WorkoutAttributes", .contentState, "distance", "Double"),
        FieldCase("WorkoutAttributes", .contentState, "barWidth", "CGFloat"),
        FieldCase("WorkoutAttributes", .contentState, "cadence", "Int?"),
        FieldCase("WorkoutAttributes", .contentState, "zones", "[String: Double]"),
        FieldCase("WorkoutAttributes", .contentState, "laps", shape: lap),
        FieldCase("WorkoutAttributes", .contentState, "session_id", "UUID", property: "sessionID"),
        FieldCase("WorkoutAttributes", .attributes, "goalMeters", "Int"),
        // Conformance in an extension, enums without raw values, implicit Int raw values, inferred types.
        FieldCase("MatchAttributes", .contentState, "homeScore", "Int"),
        FieldCase("MatchAttributes", .contentState, "awayScore", "Int"),
        FieldCase("MatchAttributes", .contentState, "period", shape: period),
        FieldCase("MatchAttributes", .contentState, "severity", shape: severity),
        FieldCase("MatchAttributes", .contentState, "minute", "Int"),
        FieldCase("MatchAttributes", .contentState, "possession", "Double"),
        FieldCase("MatchAttributes", .contentState, "headline", "String"),
        FieldCase("MatchAttributes", .contentState, "isLive", "Bool"),
        FieldCase("MatchAttributes", .contentState, "updatedAt", "Date"),
        FieldCase("MatchAttributes", .contentState, "scorers", "[String]"),
        FieldCase("MatchAttributes", .contentState, "kickoff", "Date"),
        FieldCase("MatchAttributes", .contentState, "link", "URL?"),
        FieldCase("MatchAttributes", .attributes, "homeTeam", "String"),
        // Refining protocol, top-level typealias, Set, #if branches.
        FieldCase("PromoAttributes", .contentState, "price", "Decimal"),
        FieldCase("PromoAttributes", .contentState, "codes", "[String]"),
        FieldCase("PromoAttributes", .contentState, "debugLabel", "String?"),
        FieldCase("PromoAttributes", .attributes, "campaign", "String"),
        // Unresolvable fields stay, as unresolved, with the optionality Swift gives them.
        FieldCase("ProblemAttributes", .contentState, "tint", shape: .unresolved("Color")),
        FieldCase("ProblemAttributes", .contentState, "custom", shape: .unresolved("Custom")),
        FieldCase("ProblemAttributes", .contentState, "byID", shape: .unresolved("[Int: String]")),
        FieldCase("ProblemAttributes", .contentState, "boxed", shape: .unresolved("Box<Int>")),
        FieldCase("ProblemAttributes", .contentState, "level", shape: .optional(.unresolved("@Clamped"))),
        FieldCase("ProblemAttributes", .contentState, "fine", "String"),
        FieldCase("TimerAttributes", .contentState, "window", shape: .unresolved("ClosedRange<Date>")),
    ]

    @Test(arguments: fields)
    func derivesTheShapeSynthesizedCodableGivesEachField(_ field: FieldCase) throws {
        let schema = try #require(Fixtures.schema(field.type))
        let list = field.part == .attributes ? schema.attributes : schema.contentState
        let found = try #require(list.first { $0.key == field.key }, "no field \(field.key)")
        #expect(found.shape == field.expected)
        if let property = field.property { #expect(found.property == property) }
        #expect(field.expected != nil)
    }

    @Test func findsEveryActivityAttributesTypeAndNothingElse() {
        let names = Set(Fixtures.corpus.schemas.map(\.attributesType))
        #expect(names == [
            "DeliveryAttributes", "WorkoutAttributes", "MatchAttributes", "PromoAttributes", "TimerAttributes",
            "ProblemAttributes", "OpaqueStateAttributes",
        ])
    }

    /// Keys synthesized Decodable does not read: `let` with a default, computed properties (getter or get/set),
    /// statics, properties left out of CodingKeys.
    @Test(arguments: [
        ("DeliveryAttributes", "schemaVersion"), ("DeliveryAttributes", "isLate"), ("DeliveryAttributes", "progressText"),
        ("DeliveryAttributes", "preview"), ("WorkoutAttributes", "localOnly"), ("WorkoutAttributes", "heartRate"),
    ])
    func leavesOutPropertiesThatAreNotDecoded(type: String, key: String) throws {
        let schema = try #require(Fixtures.schema(type))
        #expect(!schema.contentState.contains { $0.key == key })
    }

    @Test func staticLetWithDefaultIsNotAnAttribute() throws {
        let schema = try #require(Fixtures.schema("DeliveryAttributes"))
        #expect(schema.attributes.map(\.key) == ["orderID", "restaurantName", "createdAt"])
    }

    @Test func aliasedContentStateRecordsItsTargetName() throws {
        #expect(Fixtures.schema("WorkoutAttributes")?.contentStateType == "State")
        #expect(Fixtures.schema("DeliveryAttributes")?.contentStateType == "ContentState")
    }

    @Test func customDecoderOnContentStateMarksItUnchecked() throws {
        let schema = try #require(Fixtures.schema("OpaqueStateAttributes"))
        #expect(!schema.contentStateChecked)
        #expect(schema.attributesChecked)
        #expect(schema.attributes.map(\.key) == ["title"])
    }

    @Test(arguments: [
        ("ProblemAttributes.ContentState.tint", "type `Color` is not declared"),
        ("Custom", "custom init(from:)"),
        ("ProblemAttributes.ContentState.byID", "only String-keyed dictionaries"),
        ("ProblemAttributes.ContentState.boxed", "generic type `Box<Int>`"),
        ("ProblemAttributes.ContentState.level", "property wrapper @Clamped"),
        ("ProblemAttributes.ContentState.computedDefault", "add a type annotation"),
        ("OpaqueStateAttributes.ContentState", "custom init(from:)"),
        ("TimerAttributes.Node.children", "contains itself"),
        ("TimerAttributes.ContentState.window", "ClosedRange<Date>"),
    ])
    func reportsWhatItCannotResolve(subject: String, phrase: String) {
        let matching = Fixtures.corpus.problems.filter { $0.contains(": \(subject): ") && $0.contains(phrase) }
        #expect(matching.count == 1, "\(Fixtures.corpus.problems)")
    }

    @Test func problemsNameFileAndLine() {
        for problem in Fixtures.corpus.problems {
            #expect(problem.range(of: #"^/.+\.swift:\d+: "#, options: .regularExpression) != nil, "\(problem)")
        }
    }

    @Test func resolvedTypesProduceNoProblems() {
        for clean in ["DeliveryAttributes", "WorkoutAttributes", "MatchAttributes", "PromoAttributes"] {
            #expect(!Fixtures.corpus.problems.contains { $0.contains(": \(clean).") }, "\(clean)")
        }
    }

    @Test func parsesASingleFileAndFindsFoldersRecursively() throws {
        let single = try ActivitySourceParser.parse(paths: [Fixtures.path("WorkoutAttributes.swift")])
        #expect(single.schemas.map(\.attributesType) == ["WorkoutAttributes"])
        #expect(Fixtures.corpus.files.contains { $0.hasSuffix("Nested/PromoAttributes.swift") })
    }

    @Test func missingPathThrows() {
        #expect(throws: ActivitySourceError.self) {
            try ActivitySourceParser.parse(paths: [Fixtures.path("does-not-exist")])
        }
    }

    @Test func typeDeclaredInAnotherFileIsFollowedOnlyWhenThatFileIsGiven() {
        let attributes = """
            import ActivityKit
            struct RideAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable { var driver: Driver }
            }
            """
        let driver = "struct Driver: Codable, Hashable { var name: String; var rating: Double? }"
        let alone = ActivitySourceParser.parse(sources: [("Ride.swift", attributes)])
        #expect(alone.schemas.first?.contentState.first?.shape == .unresolved("Driver"))
        #expect(alone.problems.count == 1)
        let both = ActivitySourceParser.parse(sources: [("Ride.swift", attributes), ("Driver.swift", driver)])
        #expect(both.schemas.first?.contentState.first?.shape == .object(name: "Driver", fields: [
            SchemaField(key: "name", shape: .string), SchemaField(key: "rating", shape: .optional(.float(.double))),
        ]))
        #expect(both.problems.isEmpty)
    }
}
