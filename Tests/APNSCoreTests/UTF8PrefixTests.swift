@testable import APNSCore
import Testing

/// `String.hasUTF8Prefix` (compared in place with `memcmp`) is a byte-wise prefix test.
@Suite struct UTF8PrefixTests {
    @Test(arguments: ["/4/broadcasts/apps/com.example", "/4/broadcasts/", "/4/broadcasts", "/3/device/ab", "", "/4/bro"])
    func utf8PrefixIsAByteComparison(path: String) {
        #expect(path.hasUTF8Prefix("/4/broadcasts/") == Array(path.utf8).starts(with: Array("/4/broadcasts/".utf8)))
        #expect(path.hasUTF8Prefix(""))
    }
}
