@testable import APNSCore
import DeliveryFixtures
import Testing

@testable import APNSStore

/// The SQLite store answers free-text search from the record JSON, ruling rows out before decoding them. Ruling out
/// a record whose search text has the query would lose a match, so every substring of every record's search text
/// must pass the prefilter; text the record lacks should be ruled out without a decode.
@Suite struct SearchPrefilterTests {
    static let records: [DeliveryRecord] = {
        var quoted = DeliveryRecordFieldsTests.full
        quoted.headers.append(HeaderField("x-note", "tab\there, \"quoted\" and back\\slash"))
        return [
            DeliveryRecordFieldsTests.full,
            quoted,
            makeRecord(token: "AB12", topic: "Com.Example.App", payload: #"{"aps":{"alert":"Hello: World"}}"#,
                       warnings: [PushWarning(code: "la-stale-date", message: "Stale: soon")],
                       liveActivityCode: "ignored"),
            makeRecord(payload: #"{"aps":{"alert":"ÉTÉ İstanbul K"}}"#),
            makeRecord(payload: "not json at all"),
        ]
    }()

    @Test("every substring of the search text passes the prefilter", arguments: records.indices)
    func noMatchIsRuledOut(index: Int) {
        let record = Self.records[index]
        let json = record.jsonBytes
        let text = Array(record.searchText)
        for length in 1...6 {
            guard text.count >= length else { break }
            for start in 0...(text.count - length) {
                let query = String(text[start..<(start + length)])
                let passes = DeliveryRecord.storedJSON(json, mayMatchSearch: query)
                #expect(passes, "\(query.debugDescription) is in the search text but was ruled out")
            }
        }
        #expect(DeliveryRecord.storedJSON(json, mayMatchSearch: record.searchText))
    }

    @Test("text an ASCII record does not hold is ruled out without decoding", arguments: [
        "zzz-not-there", "com.example.app.voip", "badtopicx",
    ])
    func absentTextIsRuledOut(query: String) {
        #expect(!DeliveryRecord.storedJSON(DeliveryRecordFieldsTests.full.jsonBytes, mayMatchSearch: query))
    }

    @Test("queries the JSON form may not hold verbatim are left to the decoded record", arguments: [
        "apns-topic: com", "c:", " com", "\"q\"", "a\nb", "été", "back\\slash",
    ])
    func unsureQueriesAreNotRuledOut(query: String) {
        #expect(DeliveryRecord.storedJSON(DeliveryRecordFieldsTests.full.jsonBytes, mayMatchSearch: query))
    }
}
