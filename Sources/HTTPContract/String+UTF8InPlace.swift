extension String {
    /// Runs `body` on the string's UTF-8 bytes in place: no copy of the string, as `withUTF8` needs on a `let` (a
    /// retain and a release per string, per push where records are packed, rows written, header values compared and
    /// prefixes tested); a string not stored as contiguous UTF-8 is copied first.
    @inlinable @inline(__always)
    public func withUTF8InPlace<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}
