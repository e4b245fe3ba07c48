import APNSCore
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
        let millis = time.millisecondsSinceEpoch
        let days = millis >= 0 ? millis / 86_400_000 : (millis - 86_399_999) / 86_400_000
        let msOfDay = millis - days * 86_400_000
        let (year, month, day) = CivilDate.from(daysSinceUnixEpoch: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(msOfDay / 3_600_000, 2) + ":"
            + pad(msOfDay / 60_000 % 60, 2) + ":" + pad(msOfDay / 1000 % 60, 2) + "." + pad(msOfDay % 1000, 3) + "Z"
    }
}
