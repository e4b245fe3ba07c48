import APNSCore

@testable import APNSStore

/// The store's own packing and reading entry points (`packInScratch` and `withPackedBytes`; `unpack` and
/// `hasAPNsID` over a buffer) with the packed bytes in an array, for tests that look at one packed record.
extension DeliveryPacker {
    /// A packer with pools of its own.
    init(pools: DeliveryInternPools = DeliveryInternPools()) {
        self.init(shared: SharedDeliveryPools(pools))
    }

    /// A copy of the pools the packed records refer to (a packer with pools).
    var pools: DeliveryInternPools { shared!.snapshot() }

    /// The bytes the store would copy into its arena for `record`; nil when it would keep the record whole.
    mutating func pack(_ record: DeliveryRecord) -> [UInt8]? {
        guard packInScratch(record) != nil else { return nil }
        return withPackedBytes { Array($0) }
    }
}

extension PackedDeliveryRecord {
    static func unpack(
        _ bytes: [UInt8], id: Int64, receivedAt: Timestamp, pools: DeliveryInternPools?
    ) -> DeliveryRecord? {
        bytes.withUnsafeBufferPointer { unpack($0, id: id, receivedAt: receivedAt, pools: pools) }
    }

    static func hasAPNsID(_ bytes: [UInt8], _ apnsID: String) -> Bool {
        bytes.withUnsafeBufferPointer { hasAPNsID($0, apnsID) }
    }
}
