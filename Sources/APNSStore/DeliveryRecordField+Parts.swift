import APNSCore
import APNSJSON
import HTTPContract

/// A SQLite filter column and how its value is read from a record. A struct, not a tuple or a bare closure in an
/// optional or an array: those hold the closure at the most general abstraction, and each call then went through a
/// thunk that copied the whole record. The store's rows write the columns straight from the record
/// (`EncodedDelivery.init(columnsOf:id:blobCapacity:)`, in this table's order); `value` is the reference they are
/// tested against.
struct DeliveryRecordColumn: Sendable {
    enum Getter: Sendable {
        case integer(@Sendable (DeliveryRecord) -> Int64)
        /// nil: SQL NULL.
        case text(@Sendable (DeliveryRecord) -> String?)
    }

    let name: String
    let getter: Getter

    init(_ name: String, integer: @escaping @Sendable (DeliveryRecord) -> Int64) {
        self.name = name
        getter = .integer(integer)
    }

    init(_ name: String, text: @escaping @Sendable (DeliveryRecord) -> String?) {
        self.name = name
        getter = .text(text)
    }

    /// The column's value for `record`.
    func value(_ record: DeliveryRecord) -> SQLiteValue {
        switch getter {
        case .integer(let get): .integer(get(record))
        case .text(let get): get(record).map { .text($0) } ?? .null
        }
    }
}

/// A field's writer alone, in a struct for the same reason (an array of bare closures made every field's write
/// copy the ~600-byte record through a thunk: a `memcpy` per field of every recorded push).
struct DeliveryRecordFieldWriter: Sendable {
    let write: @Sendable (DeliveryRecord, inout JSONWriter) -> Void
}

/// An element of a record's array of two-string objects. A requirement rather than a closure passed to `pairs`, so
/// that its specialisation reads the two strings directly (a closure made in the generic context took its argument
/// indirectly), and writes them in place: returning the two strings as a pair retained and released both for every
/// header of every record.
protocol DeliveryRecordPair {
    /// Writes `"first":…,"second":…` (the element's object is open).
    func writeMembers(_ first: JSONWriter.EncodedKey, _ second: JSONWriter.EncodedKey, to writer: inout JSONWriter)
}

extension HeaderField: DeliveryRecordPair {
    func writeMembers(_ first: JSONWriter.EncodedKey, _ second: JSONWriter.EncodedKey, to writer: inout JSONWriter) {
        writer.field(first, name)
        writer.field(second, value)
    }
}

extension PushWarning: DeliveryRecordPair {
    func writeMembers(_ first: JSONWriter.EncodedKey, _ second: JSONWriter.EncodedKey, to writer: inout JSONWriter) {
        writer.field(first, code)
        writer.field(second, message)
    }
}
