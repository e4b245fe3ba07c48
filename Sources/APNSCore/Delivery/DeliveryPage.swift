import Foundation

/// A stored row a read left out because its record could not be decoded (a damaged blob): its id and why.
public struct UndecodableDelivery: Sendable, Hashable, Codable {
    public var id: Int64
    public var error: String

    public init(id: Int64, error: String) {
        self.id = id
        self.error = error
    }
}

/// The records of one read and the rows it left out (`DeliveryReader.deliveryPage`).
public struct DeliveryPage: Sendable {
    public var records: [DeliveryRecord]
    /// The rows in the range read whose record could not be decoded, oldest first: skipped, so one bad row never
    /// hides the good ones.
    public var undecodable: [UndecodableDelivery]

    public init(records: [DeliveryRecord], undecodable: [UndecodableDelivery] = []) {
        self.records = records
        self.undecodable = undecodable
    }
}
