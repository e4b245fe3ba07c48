import APNSCore
import DeliveryFixtures
import Foundation
import Testing

@testable import APNSStore

@Suite("The record's JSON form")
struct DeliveryRecordJSONTests {
    static let awkwardTexts = [
        #"{"aps":{"alert":"plain"}}"#,
        "quote \" backslash \\ newline \n tab \t return \r nul \u{0} bell \u{7}",
        "<script>alert(1)</script> <img src=x onerror=alert(2)>",
        "unicode: 日本語 🚀 \u{2028}",
    ]

    @Test("the fast writer and Codable encode the same record", arguments: awkwardTexts)
    func fastWriterMatchesCodable(text: String) throws {
        let record = makeRecord(explanation: text, payload: text,
                                warnings: [PushWarning(code: "c", message: text)]).withID(99)
        let fast = try JSONDecoder().decode(DeliveryRecord.self, from: Data(record.jsonBytes))
        let codable = try JSONDecoder().decode(DeliveryRecord.self, from: JSONEncoder().encode(record))
        #expect(fast == record)
        #expect(codable == record)
        let fastObject = try JSONSerialization.jsonObject(with: Data(record.jsonBytes)) as! NSDictionary
        let codableObject = try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as! NSDictionary
        #expect(fastObject == codableObject)
    }

    @Test("receivedAt is ISO 8601 UTC with milliseconds, matching Foundation's formatter",
          arguments: [Int64(0), 1_767_225_600_123, 951_782_400_999, 4_102_444_799_001, -1])
    func iso8601(millis: Int64) {
        let time = Timestamp(nanosecondsSinceEpoch: millis * 1_000_000)
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(Date.ISO8601FormatStyle())
        let fraction = millis - seconds * 1000
        let expected = whole.dropLast() + "." + String(format: "%03d", Int(fraction)) + "Z"
        #expect(DeliveryRecord.iso8601(time) == expected)
    }
}
