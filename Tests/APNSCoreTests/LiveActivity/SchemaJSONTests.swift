import APNSCore
import Foundation
import Testing

/// The config-file form of schemas: what teams without Swift sources write.
@Suite struct SchemaJSONTests {
    @Test(arguments: [
        ("String", CodableShape.string), ("Bool", .bool), ("Int", .integer(.int)), ("UInt8", .integer(.uint8)),
        ("Double", .float(.double)), ("CGFloat", .float(.cgFloat)), ("TimeInterval", .float(.double)),
        ("Date", .date), ("Foundation.Date", .date), ("URL", .url), ("UUID", .uuid), ("Data", .data),
        ("Date?", .optional(.date)), ("[Int]", .array(.integer(.int))), ("[String: [Double?]]", .dictionary(.array(.optional(.float(.double))))),
        ("Optional<UUID>", .optional(.uuid)), ("Array<String>", .array(.string)), ("Set<Int>", .array(.integer(.int))),
        ("Dictionary<String, Bool>", .dictionary(.bool)),
    ])
    func readsSwiftSpellings(spelling: String, shape: CodableShape) {
        #expect(CodableShape(spelling: spelling) == shape)
    }

    @Test(arguments: ["Color", "[Int: String]", "Dictionary<Int, String>", "Box<Int>", ""])
    func refusesSpellingsItCannotModel(spelling: String) {
        #expect(CodableShape(spelling: spelling) == nil)
    }

    @Test func parsedCorpusRoundTripsThroughJSON() throws {
        let data = try JSONEncoder().encode(Fixtures.corpus.schemas)
        let decoded = try JSONDecoder().decode([ActivitySchema].self, from: data)
        #expect(decoded == Fixtures.corpus.schemas)
    }

    @Test func readsTheShortMapFormOfAConfigFile() throws {
        let json = """
            {"schemas": [{
              "attributesType": "DeliveryAttributes",
              "attributes": {"orderID": "String"},
              "contentState": {
                "progress": "Double",
                "eta": "Date",
                "note": "String?",
                "phase": {"type": "enum", "name": "Phase", "rawType": "String",
                          "cases": ["preparing", {"name": "onTheWay", "rawValue": "on_the_way"}]},
                "level": {"type": "enum", "name": "Level", "rawType": "Int", "cases": ["low", {"name": "high", "rawValue": "5"}, "max"]},
                "courier": {"type": "optional", "wrapped": {"type": "object", "name": "Courier", "fields": {"name": "String"}}}
              }
            }], "supportsFrequentUpdates": true}
            """
        let configuration = try JSONDecoder().decode(LiveActivityConfiguration.self, from: Data(json.utf8))
        #expect(configuration.supportsFrequentUpdates)
        #expect(configuration.priority10BudgetPerHour == LiveActivityConfiguration().priority10BudgetPerHour)
        let schema = try #require(configuration.schemas.first)
        #expect(schema.attributes == [SchemaField(key: "orderID", shape: .string)])
        let state = Dictionary(uniqueKeysWithValues: schema.contentState.map { ($0.key, $0.shape) })
        #expect(state["progress"] == .float(.double))
        #expect(state["note"] == .optional(.string))
        #expect(state["phase"] == .enumeration(EnumShape(name: "Phase", rawType: .string, cases: [
            EnumCase(name: "preparing", rawValue: "preparing"), EnumCase(name: "onTheWay", rawValue: "on_the_way"),
        ])))
        #expect(state["level"] == .enumeration(EnumShape(name: "Level", rawType: .integer(.int), cases: [
            EnumCase(name: "low", rawValue: "0"), EnumCase(name: "high", rawValue: "5"), EnumCase(name: "max", rawValue: "6"),
        ])))
        #expect(state["courier"] == .optional(.object(name: "Courier", fields: [SchemaField(key: "name", shape: .string)])))
    }

    @Test func requiredFalseMakesAFieldOptional() throws {
        let json = #"[{"key": "eta", "shape": "Date", "required": false}]"#
        let fields = try JSONDecoder().decode([SchemaField].self, from: Data(json.utf8))
        #expect(fields == [SchemaField(key: "eta", shape: .optional(.date))])
    }

    @Test func unknownTypeNameInAConfigFileIsAnError() {
        let json = #"{"attributesType": "A", "contentState": {"tint": "Color"}}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ActivitySchema.self, from: Data(json.utf8))
        }
    }
}
