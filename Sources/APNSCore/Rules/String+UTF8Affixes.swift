extension String {
    /// Byte-wise prefix test on UTF-8, without Foundation's locale-aware `hasPrefix` overload: lengths first, then
    /// the bytes in place over both strings' contiguous storage (the generic `starts(with:)` over the two
    /// `UTF8View`s advanced an index per byte; no copy of either string).
    func hasUTF8Prefix(_ prefix: String) -> Bool {
        let text = utf8.span
        let prefix = prefix.utf8.span
        return text.count >= prefix.count && ByteScan.equal(text.extracting(0..<prefix.count), prefix)
    }
}
