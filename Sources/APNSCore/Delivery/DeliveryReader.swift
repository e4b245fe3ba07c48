import Foundation

/// One way to read deliveries, whoever holds them: the running server's store (`DeliveryStore`), a store file
/// another process writes (`SQLiteDeliveryArchive`), or a running server's admin API (`AdminClient`). The command
/// line (`deliveries`, `explain`) and the admin API's export read through it and do not care which it is.
public protocol DeliveryReader {
    /// What reads throw: `DeliveryStoreError` for the store and the file, any error for the admin client.
    associatedtype ReadError: Error

    /// Records matching `query`, in its order, at most `query.limit`. A stored row whose record cannot be decoded
    /// is left out (`deliveryPage` lists it).
    func deliveries(_ query: DeliveryQuery) throws(ReadError) -> [DeliveryRecord]

    /// `deliveries` with the rows it left out because their record could not be decoded.
    func deliveryPage(_ query: DeliveryQuery) throws(ReadError) -> DeliveryPage

    func delivery(id: Int64) throws(ReadError) -> DeliveryRecord?

    /// The newest record with this `apns-id` (clients may reuse an id).
    func delivery(apnsID: String) throws(ReadError) -> DeliveryRecord?

    /// The oldest record with id > `afterID` that matches `filter`; waits up to `timeout` for one, then returns nil.
    func waitForNext(_ filter: DeliveryFilter, after afterID: Int64, timeout: Duration) throws(ReadError)
        -> DeliveryRecord?

    /// The highest delivery id stored (0 when nothing was ever stored).
    func newestID() throws(ReadError) -> Int64
}

extension DeliveryReader {
    /// A reader that cannot tell: no row left out.
    public func deliveryPage(_ query: DeliveryQuery) throws(ReadError) -> DeliveryPage {
        DeliveryPage(records: try deliveries(query))
    }

    /// By numeric delivery id first, then by `apns-id`.
    public func delivery(matching key: String) throws(ReadError) -> DeliveryRecord? {
        if let id = Int64(key), let record = try delivery(id: id) { return record }
        return try delivery(apnsID: key)
    }

    /// The next records matching `filter` after `afterID`, oldest first: waits up to `timeout` for the first, then
    /// takes up to `limit` more that are already there. Empty when none arrived in time.
    public func next(_ filter: DeliveryFilter, after afterID: Int64, timeout: Duration, limit: Int = 500)
        throws(ReadError) -> [DeliveryRecord]
    {
        guard let first = try waitForNext(filter, after: afterID, timeout: timeout) else { return [] }
        let rest = try deliveries(DeliveryQuery(filter: filter, afterID: first.id, limit: limit, order: .oldestFirst))
        return [first] + rest
    }

    /// Writes every record matching `filter`, oldest first, as JSON Lines (one JSON object and `\n` per record),
    /// handing chunks to `write`. Pages through the records so memory stays bounded. Returns the rows left out
    /// because their record could not be decoded.
    @discardableResult
    public func exportJSONLines(
        _ filter: DeliveryFilter, to write: (Data) throws -> Void
    ) throws -> [UndecodableDelivery] {
        var afterID: Int64 = 0
        var undecodable: [UndecodableDelivery] = []
        while true {
            let page = try deliveryPage(
                DeliveryQuery(filter: filter, afterID: afterID, limit: exportPageSize, order: .oldestFirst))
            undecodable += page.undecodable
            // The next page starts after the last row read, decoded or not.
            let last = max(page.records.last?.id ?? 0, page.undecodable.last?.id ?? 0)
            guard last > afterID else { return undecodable }
            var chunk = Data()
            for record in page.records {
                chunk.append(contentsOf: record.jsonBytes)
                chunk.append(0x0A)
            }
            try write(chunk)
            afterID = last
        }
    }
}

/// Records per page of `exportJSONLines`.
public let exportPageSize = 1_000
