extension String {
    /// Byte-wise prefix test on UTF-8, without Foundation's locale-aware `hasPrefix` overload.
    func hasUTF8Prefix(_ prefix: String) -> Bool {
        utf8.starts(with: prefix.utf8)
    }

    /// Byte-wise suffix test on UTF-8, without Foundation's locale-aware `hasSuffix` overload.
    func hasUTF8Suffix(_ suffix: String) -> Bool {
        let count = utf8.count
        let suffixCount = suffix.utf8.count
        return count >= suffixCount && utf8.dropFirst(count - suffixCount).elementsEqual(suffix.utf8)
    }
}
