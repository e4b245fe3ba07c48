import Foundation

extension String {
    /// Byte-wise prefix test on UTF-8, without Foundation's locale-aware `hasPrefix` overload.
    /// Compared in place over both strings' contiguous bytes (the generic `starts(with:)` over the two `UTF8View`s
    /// advanced an index per byte), lengths first, then one `memcmp`; without copying either string (`withUTF8` on a
    /// copy retained and released each: ~220 instructions for every push's broadcast-path test).
    func hasUTF8Prefix(_ prefix: String) -> Bool {
        guard utf8.count >= prefix.utf8.count else { return false }
        if let found = utf8.withContiguousStorageIfAvailable({ text in
            prefix.utf8.withContiguousStorageIfAvailable { prefix in
                prefix.isEmpty || memcmp(text.baseAddress!, prefix.baseAddress!, prefix.count) == 0
            }
        }), let found {
            return found
        }
        var text = self
        var prefix = prefix
        return text.withUTF8 { text in
            prefix.withUTF8 { prefix in
                text.count >= prefix.count && UnsafeBufferPointer(rebasing: text[..<prefix.count]).elementsEqual(prefix)
            }
        }
    }
}
