@testable import APNSCore
import APNSJSON

@testable import APNSStore

/// Rows from and back to `SQLiteValue`s, and a record's row from a JSON array: the tests compare the store's
/// in-place rows with binding value by value.
extension SQLiteRow {
    /// The row of `values`, in order.
    init(_ values: [SQLiteValue]) {
        self.init(capacity: values.reduce(0) { $0 + Self.encodedCount($1) })
        for value in values { append(value) }
    }

    /// Reads the little-endian number of `byteCount` bytes at `offset`.
    static func number(in bytes: some RandomAccessCollection<UInt8>, at offset: Int, byteCount: Int) -> UInt64 {
        var value: UInt64 = 0
        for position in 0..<byteCount {
            value |= UInt64(bytes[bytes.index(bytes.startIndex, offsetBy: offset + position)]) << (8 * position)
        }
        return value
    }

    /// The values, decoded.
    var values: [SQLiteValue] {
        var values: [SQLiteValue] = []
        var offset = 0
        while offset < bytes.count {
            let tag = Tag(rawValue: bytes[offset])
            offset += 1
            switch tag {
            case .null?:
                values.append(.null)
            case .integer?:
                values.append(.integer(Int64(bitPattern: Self.number(in: bytes, at: offset, byteCount: 8))))
                offset += 8
            case .text?, .blob?:
                let count = Int(Self.number(in: bytes, at: offset, byteCount: 4))
                let content = bytes[offset + 4..<offset + 4 + count]
                values.append(tag == .text ? .text(String(decoding: content, as: UTF8.self)) : .blob(Array(content)))
                offset += 4 + count
            case nil:
                preconditionFailure("not a row: tag \(bytes[offset - 1]) at \(offset - 1)")
            }
        }
        return values
    }
}

extension EncodedDelivery {
    /// `json`: any `record` blob (a damaged or forged one).
    init(_ record: DeliveryRecord, id: Int64, json: [UInt8]) {
        self.init(record, id: id, jsonCapacity: json.count) { writer in json.withUnsafeBytes { writer.appendRaw($0) } }
    }

    /// The `record` blob of the row (its last value).
    var storedRecord: [UInt8] {
        guard case .blob(let stored)? = row.values.last else { preconditionFailure("no record blob") }
        return stored
    }
}
