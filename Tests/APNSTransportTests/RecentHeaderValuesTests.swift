import Testing
@testable import APNSTransport

/// A header value reused from a recent request is the string a fresh decoding would give, for every shape of value.
@Suite struct RecentHeaderValuesTests {
    static func decode(_ recent: inout RecentHeaderValues, _ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { recent.string($0) }
    }

    @Test func everyValueDecodesAsAfreshWhetherRepeatedOrNot() {
        var recent = RecentHeaderValues()
        let token = Array("bearer eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJUIn0.c2ln".utf8)
        var values: [[UInt8]] = [token, token, Array("short".utf8), token]
        values += (0..<20).map { Array("com.example.app-\($0).push-type.liveactivity".utf8) }  // more than it keeps
        values += [token, [0x61, 0xF0, 0x9F, 0x98] + Array(repeating: 0x62, count: 20), Array("ünïcødé välüé ✓ ✓".utf8)]
        values += values
        for bytes in values {
            #expect(Self.decode(&recent, bytes) == String(decoding: bytes, as: UTF8.self))
        }
    }
}
