import APNSCore
import APNSJSON
import HTTPContract

/// A SQLite filter column and its value. A struct, not a tuple or a bare closure in an optional or an array: those
/// hold the closure at the most general abstraction, and each call then went through a thunk that copied the whole
/// record.
struct DeliveryRecordColumn: Sendable {
    let name: String
    let value: @Sendable (DeliveryRecord) -> SQLiteValue

    init(_ name: String, value: @escaping @Sendable (DeliveryRecord) -> SQLiteValue) {
        self.name = name
        self.value = value
    }
}

/// A field's writer alone, in a struct for the same reason (an array of bare closures made every field's write
/// copy the ~600-byte record through a thunk: a `memcpy` per field of every recorded push).
struct DeliveryRecordFieldWriter: Sendable {
    let write: @Sendable (DeliveryRecord, inout JSONWriter) -> Void
}

/// An element of a record's array of two-string objects. A requirement rather than a closure passed to `pairs`, so
/// that its specialisation reads the two strings directly (a closure made in the generic context took its argument
/// indirectly).
protocol DeliveryRecordPair {
    var storedPair: (first: String, second: String) { get }
}

extension HeaderField: DeliveryRecordPair {
    var storedPair: (first: String, second: String) { (name, value) }
}

extension PushWarning: DeliveryRecordPair {
    var storedPair: (first: String, second: String) { (code, message) }
}
