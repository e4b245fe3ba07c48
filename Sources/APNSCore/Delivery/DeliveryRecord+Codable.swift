import APNSJSON
import Foundation

/// `Codable` reads and writes the one JSON form of `DeliveryRecord.fields` (so `AdminClient` and tests can use
/// `JSONDecoder`/`JSONEncoder`); the store and the admin API use `jsonBytes` and `init(jsonBytes:)` directly.
extension DeliveryRecord {
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        do {
            try self.init(json: value)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try JSONParser.parse(jsonBytes).encode(to: encoder)
    }

    /// `2026-01-01T00:00:00.123Z` (UTC, milliseconds, truncated like `millisecondsSinceEpoch`). Computed by hand
    /// (`CivilDate`) because date formatters cost more than the rest of a record's encoding.
    public static func iso8601(_ time: Timestamp) -> String {
        String(unsafeUninitializedCapacity: 24) { bytes in writeISO8601(time, into: bytes) }
    }

    /// `iso8601` as a JSON string value, written from a buffer on the stack (the 24-byte `String` was an allocation
    /// per recorded push).
    public static func writeISO8601(_ time: Timestamp, to writer: inout JSONWriter) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { bytes in
            let count = writeISO8601(time, into: bytes)
            writer.string(utf8: UnsafeBufferPointer(rebasing: bytes[..<count]))
        }
    }

    /// Writes `iso8601`'s 24 bytes into `bytes` (at least 24) and returns 24.
    private static func writeISO8601(_ time: Timestamp, into bytes: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let millis = time.millisecondsSinceEpoch
        let days = millis >= 0 ? millis / 86_400_000 : (millis - 86_399_999) / 86_400_000
        let msOfDay = millis - days * 86_400_000
        let (year, month, day) = CivilDate.from(daysSinceUnixEpoch: days)
        // "YYYY-MM-DDTHH:MM:SS.mmmZ": 24 ASCII bytes written in place (this runs for every recorded push). Nanoseconds
        // in an Int64 span the years 1677–2262: always four digits.
        func put(_ value: Int64, width: Int, at end: Int) {
            var value = value
            for position in stride(from: end - 1, through: end - width, by: -1) {
                bytes[position] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(year, width: 4, at: 4)
        bytes[4] = UInt8(ascii: "-")
        put(month, width: 2, at: 7)
        bytes[7] = UInt8(ascii: "-")
        put(day, width: 2, at: 10)
        bytes[10] = UInt8(ascii: "T")
        put(msOfDay / 3_600_000, width: 2, at: 13)
        bytes[13] = UInt8(ascii: ":")
        put(msOfDay / 60_000 % 60, width: 2, at: 16)
        bytes[16] = UInt8(ascii: ":")
        put(msOfDay / 1000 % 60, width: 2, at: 19)
        bytes[19] = UInt8(ascii: ".")
        put(msOfDay % 1000, width: 3, at: 23)
        bytes[23] = UInt8(ascii: "Z")
        return 24
    }
}
