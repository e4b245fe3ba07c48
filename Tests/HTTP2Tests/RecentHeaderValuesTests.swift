import Testing
@testable import HTTP2

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

extension RecentHeaderValuesTests {
    /// Short values are kept by their bytes: equal bytes give the string a fresh decoding gives, different bytes of
    /// the same length (or a prefix, or the same bytes padded with NULs) never find another value's string.
    @Test func shortValuesAreReusedOnlyForTheSameBytes() {
        var recent = RecentHeaderValues()
        var values: [[UInt8]] = [[], Array("POST".utf8), Array("PUT".utf8), Array("POST".utf8), Array("POS".utf8),
                                 Array("POST".utf8) + [0], [0], [0, 0], Array("https".utf8), Array("12345678".utf8),
                                 Array("123456789".utf8), Array("123456780".utf8), Array("liveactivity".utf8),
                                 Array("123456789012345".utf8), Array("123456789012346".utf8), [0xC3], [0xC3, 0xA9],
                                 Array("é".utf8), [0xFF, 0xFE]]
        values += (0..<20).map { Array("v\($0)".utf8) }  // more than it keeps
        values += values.reversed()
        for bytes in values {
            #expect(Self.decode(&recent, bytes) == String(decoding: bytes, as: UTF8.self), "\(bytes)")
        }
    }
}

extension RecentHeaderValuesTests {
    /// A short value's key covers every one of its bytes, whatever its length: two values of one length that differ
    /// in a single byte, at any position, never find each other's string.
    @Test func shortValuesDifferingInAnyOneByteStayApart() {
        var recent = RecentHeaderValues()
        for length in 1...RecentHeaderValues.inlineLimit {
            let base = (0..<length).map { UInt8(ascii: "a") + UInt8($0) }
            for position in 0..<length {
                var changed = base
                changed[position] = UInt8(ascii: "Z")
                for bytes in [base, changed, base, changed] {
                    #expect(Self.decode(&recent, bytes) == String(decoding: bytes, as: UTF8.self), "\(bytes)")
                }
            }
        }
    }
}
