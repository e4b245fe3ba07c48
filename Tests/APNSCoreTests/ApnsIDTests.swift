import APNSCore
import Testing

@Suite struct ApnsIDTests {
    @Test(arguments: ["123e4567-e89b-12d3-a456-4266554400a0", "ACDFB3EB-105B-D33C-7F29-8D09A01CC4EF", "not-a-uuid"])
    func requestValueIsEchoedByteForByte(_ sent: String) {
        #expect(ApnsID.resolve(requestValue: sent) == sent)
    }

    @Test(arguments: [nil, ""] as [String?])
    func missingRequestValueGetsANewUpperCaseUUID(_ sent: String?) {
        let id = ApnsID.resolve(requestValue: sent)
        #expect(ApnsID.isCanonicalUUID(id))
        #expect(id == id.uppercased())
        #expect(id != ApnsID.resolve(requestValue: sent))
    }

    @Test func uniqueIDIsALowerCaseUUID() {
        let id = ApnsID.newUniqueID()
        #expect(ApnsID.isCanonicalUUID(id))
        #expect(id == id.lowercased())
    }

    @Test func newIDsAreVersion4VariantRFCAndDistinct() {
        var seen = Set<String>()
        for _ in 0..<10_000 {
            let id = ApnsID.newUniqueID()
            let bytes = Array(id.utf8)
            #expect(bytes[14] == UInt8(ascii: "4"))
            #expect([UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(bytes[19]))
            seen.insert(id)
        }
        #expect(seen.count == 10_000)
    }

    @Test(arguments: [
        ("123e4567-e89b-12d3-a456-4266554400a0", true),
        ("ACDFB3EB-105B-D33C-7F29-8D09A01CC4EF", true),
        ("123e4567e89b12d3a4564266554400a0", false),
        ("123e4567-e89b-12d3-a456-4266554400a", false),
        ("123e4567-e89b-12d3-a456-4266554400a0 ", false),
        ("g23e4567-e89b-12d3-a456-4266554400a0", false),
        ("123e4567_e89b_12d3_a456_4266554400a0", false),
        ("", false),
    ])
    func canonicalUUIDShape(_ value: String, _ isCanonical: Bool) {
        #expect(ApnsID.isCanonicalUUID(value) == isCanonical)
    }
}
