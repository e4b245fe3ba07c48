import APNSCore
/// Free-text search over stored records without a search column: the SQLite store keeps only the record's JSON, so
/// `q` is answered by reading rows. Decoding every row would make a search cost a record decode per row; this
/// answers "certainly not" from the JSON bytes alone for the usual query, and the reader decodes only the rows it
/// cannot rule out (`DeliveryRecord.searchText` stays the one definition of what matches).
extension DeliveryRecord {
    /// False only when the record whose JSON form is `json` certainly has no `lowercasedQuery` in its search text;
    /// true means "decode it and look".
    ///
    /// Sound because every searched part is a JSON string value of the record, written byte for byte except `"`,
    /// `\` and control characters (`JSONWriter.escaped`), and search text lower-cases ASCII bytewise. So when the
    /// query has none of the characters the writer escapes, no "\n" and no part of ": " (the joins search text adds
    /// between parts and inside a header), is ASCII, and the record is ASCII (Unicode lower-casing can turn a non-ASCII
    /// character into ASCII), a match in the search text is also a match in the ASCII-lower-cased JSON.
    static func storedJSON(_ json: [UInt8], mayMatchSearch lowercasedQuery: String) -> Bool {
        let query = Array(lowercasedQuery.utf8)
        guard !query.isEmpty, isPlainSearchQuery(query) else { return true }
        return json.withUnsafeBufferPointer { haystack in
            lowercasedASCIIContains(haystack, query) ?? true
        }
    }

    /// ASCII without escaped characters, and no part of the ": " search text puts between a header's name and
    /// value (not a ": " inside, no ":" at the end, no " " at the start).
    private static func isPlainSearchQuery(_ query: [UInt8]) -> Bool {
        if query.first == UInt8(ascii: " ") || query.last == UInt8(ascii: ":") { return false }
        for (index, byte) in query.enumerated() {
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { return false }
            if byte == UInt8(ascii: ":"), query[index + 1] == UInt8(ascii: " ") { return false }
        }
        return true
    }

    /// Whether `haystack`, ASCII-lower-cased, contains `needle` (already lower case); nil when `haystack` has a
    /// non-ASCII byte (the caller cannot rule the record out).
    private static func lowercasedASCIIContains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool? {
        let first = needle[0]
        let lastStart = haystack.count - needle.count
        for index in haystack.indices {
            let byte = haystack[index]
            if byte >= 0x80 { return nil }
            guard index <= lastStart, lowered(byte) == first else { continue }
            var offset = 1
            while offset < needle.count, lowered(haystack[index + offset]) == needle[offset] { offset += 1 }
            if offset == needle.count { return true }
        }
        return false
    }

    @inline(__always) private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
