import Testing

@testable import APNSCore

/// A timeline entry's `apns-id` comes back exactly as sent: canonical UUIDs kept as 16 bytes (either letter case),
/// anything else as the text itself.
@Suite struct CompactAPNsIDTests {
    static let cases: [(text: String, packed: Bool)] = [
        ("54A6AD69-5BF5-4984-A811-1CFEFFCB3841", true),
        ("3a41b321-8c38-403e-b0b8-9df926a276ae", true),
        ("00000000-0000-0000-0000-000000000000", true),
        ("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", true),
        ("12345678-1234-1234-1234-123456789012", true),
        ("54a6ad69-5BF5-4984-A811-1CFEFFCB3841", false),  // mixed case: kept as text
        ("54A6AD695BF54984A8111CFEFFCB3841", false),
        ("54A6AD69-5BF5-4984-A811-1CFEFFCB384G", false),
        ("54A6AD69_5BF5-4984-A811-1CFEFFCB3841", false),
        ("", false),
        ("not-an-id-ü", false),
    ]

    @Test(arguments: cases)
    func givesBackTheTextItWasMadeFrom(_ text: String, _ packed: Bool) {
        let id = CompactAPNsID(text)
        #expect(id.text == text)
        if case .uuid = id { #expect(packed) } else { #expect(!packed) }
    }
}
