import Foundation

/// A stored row a read left out because its record could not be decoded (a damaged blob): its id and why.
package struct UndecodableDelivery: Sendable, Hashable, Codable {
    package var id: Int64
    package var error: String

    package init(id: Int64, error: String) {
        self.id = id
        self.error = error
    }
}

/// The records of one read and the rows it left out (`DeliveryReader.deliveryPage`).
package struct DeliveryPage: Sendable {
    package var records: [DeliveryRecord]
    /// The rows in the range read whose record could not be decoded, oldest first: skipped, so one bad row never
    /// hides the good ones.
    package var undecodable: [UndecodableDelivery]

    package init(records: [DeliveryRecord], undecodable: [UndecodableDelivery] = []) {
        self.records = records
        self.undecodable = undecodable
    }
}
