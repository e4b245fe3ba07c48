@testable import APNSCore
import APNSJSON
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

    /// The record writes an ASCII payload from its bytes and the receive time from a buffer on the stack: the
    /// JSON keeps the text the payload's `String` and `iso8601` give, for ASCII, other UTF-8 and invalid bytes.
    @Test("payload and receivedAt are written as their texts",
          arguments: [Array(#"{"aps":{"alert":"a \"quoted\" word"}}"#.utf8), Array("{\"t\":\"日本 🚀\"}".utf8),
                      [0x7B, 0xFF, 0x7D], [], Array("eight by".utf8) + [0x80]])
    func payloadAndTimeAreWrittenAsTheirTexts(payload: [UInt8]) throws {
        var record = makeRecord(receivedAt: Timestamp(nanosecondsSinceEpoch: 1_767_225_600_123_456_789))
        record.payload = payload
        let object = try #require(JSONValue.parse(record.jsonBytes))
        #expect(object["receivedAt"] == .string(DeliveryRecord.iso8601(record.receivedAt)))
        #expect(object["payload"] == record.payloadText.map(JSONValue.string))
        #expect(try DeliveryRecord(jsonBytes: record.jsonBytes) == record)
    }

    /// A non-ASCII byte is found at every position, in the words read eight bytes at a time and in the tail.
    @Test func asciiIsToldFromOtherBytesAtEveryPosition() {
        for length in 0..<20 {
            let ascii = [UInt8](repeating: 0x7F, count: length)
            let allASCII = DeliveryRecord.isASCII(ascii.span)
            #expect(allASCII)
            for position in 0..<length {
                var bytes = ascii
                bytes[position] = 0x80
                let allASCII = DeliveryRecord.isASCII(bytes.span)
                #expect(!allASCII, "\(length) \(position)")
            }
        }
    }
}
