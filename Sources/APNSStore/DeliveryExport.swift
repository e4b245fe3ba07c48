import Foundation

/// JSON Lines export shared by both stores: pages through matching records oldest first so memory stays bounded.
enum DeliveryExport {
    static let pageSize = 1_000

    static func writeJSONLines(
        _ filter: DeliveryFilter, pageSource: (DeliveryQuery) throws -> [DeliveryRecord],
        to write: (Data) throws -> Void
    ) throws {
        var afterID: Int64 = 0
        while true {
            let page = try pageSource(
                DeliveryQuery(filter: filter, afterID: afterID, limit: pageSize, order: .oldestFirst))
            guard let last = page.last else { return }
            var chunk = Data()
            for record in page {
                chunk.append(contentsOf: record.jsonBytes)
                chunk.append(0x0A)
            }
            try write(chunk)
            afterID = last.id
        }
    }
}
