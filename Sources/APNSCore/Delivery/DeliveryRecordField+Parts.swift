import APNSJSON

/// A field's writer alone, in a struct for the same reason (an array of bare closures made every field's write
/// copy the ~600-byte record through a thunk: a `memcpy` per field of every recorded push).
public struct DeliveryRecordFieldWriter: Sendable {
    public let write: @Sendable (DeliveryRecord, inout JSONWriter) -> Void
}

/// An element of a record's array of two-string objects. A requirement rather than a closure passed to `pairs`, so
/// that its specialisation reads the two strings directly (a closure made in the generic context took its argument
/// indirectly), and writes them in place: returning the two strings as a pair retained and released both for every
/// header of every record.
public protocol DeliveryRecordPair {
    /// Writes `"first":…,"second":…` (the element's object is open).
    func writeMembers(_ first: JSONWriter.EncodedKey, _ second: JSONWriter.EncodedKey, to writer: inout JSONWriter)
}

extension HeaderField: DeliveryRecordPair {
    public func writeMembers(_ first: JSONWriter.EncodedKey, _ second: JSONWriter.EncodedKey, to writer: inout JSONWriter) {
        writer.field(first, name)
        writer.field(second, value)
    }
}

extension PushWarning: DeliveryRecordPair {
    public func writeMembers(_ first: JSONWriter.EncodedKey, _ second: JSONWriter.EncodedKey, to writer: inout JSONWriter) {
        writer.field(first, code)
        writer.field(second, message)
    }
}
