extension String {
    /// Byte-wise prefix test on UTF-8, without Foundation's locale-aware `hasPrefix` overload.
    /// Compared in place over both strings' contiguous bytes (the generic `starts(with:)` over the two `UTF8View`s
    /// advanced an index per byte).
    func hasUTF8Prefix(_ prefix: String) -> Bool {
        var text = self
        var prefix = prefix
        return text.withUTF8 { text in
            prefix.withUTF8 { prefix in
                text.count >= prefix.count && UnsafeBufferPointer(rebasing: text[..<prefix.count]).elementsEqual(prefix)
            }
        }
    }
}
