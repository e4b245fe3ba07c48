import Foundation
import HTTPContract

extension String {
    /// Byte-wise prefix test on UTF-8, without Foundation's locale-aware `hasPrefix` overload.
    /// Compared in place over both strings' contiguous bytes (the generic `starts(with:)` over the two `UTF8View`s
    /// advanced an index per byte), lengths first, then one `memcmp`; without copying either string (`withUTF8` on a
    /// copy retained and released each: ~220 instructions for every push's broadcast-path test; `withUTF8InPlace`).
    func hasUTF8Prefix(_ prefix: String) -> Bool {
        guard utf8.count >= prefix.utf8.count else { return false }
        return withUTF8InPlace { text in
            prefix.withUTF8InPlace { prefix in
                prefix.isEmpty || memcmp(text.baseAddress!, prefix.baseAddress!, prefix.count) == 0
            }
        }
    }
}
