import APNSCore
import CoreTestSupport
import Testing

@Suite("JWT segment Base64: base64url and padded standard Base64 both decode")
struct JWTBase64Tests {
    struct Case: Sendable, CustomStringConvertible {
        var text: String
        var bytes: [UInt8]?
        var encoding: JWTSegmentEncoding?
        var description: String { text }
    }

    static let cases: [Case] = [
        Case(text: "", bytes: [], encoding: .base64URL),
        Case(text: "_-8", bytes: [0xFF, 0xEF], encoding: .base64URL),
        Case(text: "/+8=", bytes: [0xFF, 0xEF], encoding: .standardBase64),
        Case(text: "/+8", bytes: [0xFF, 0xEF], encoding: .standardBase64),
        Case(text: "eyJhIjoxfQ", bytes: Array(#"{"a":1}"#.utf8), encoding: .base64URL),
        Case(text: "eyJhIjoxfQ==", bytes: Array(#"{"a":1}"#.utf8), encoding: .standardBase64),
        Case(text: "QUJD", bytes: Array("ABC".utf8), encoding: .base64URL),
        Case(text: "_+8", bytes: nil, encoding: nil),  // both alphabets in one segment
        Case(text: "_-8=", bytes: nil, encoding: nil),  // base64url with padding
        Case(text: "eyJh=IjoxfQ", bytes: nil, encoding: nil),  // padding in the middle
        Case(text: "QUJD===", bytes: nil, encoding: nil),  // three padding characters
        Case(text: "QUJDR", bytes: nil, encoding: nil),  // one dangling character
        Case(text: "QUJDRA=", bytes: nil, encoding: nil),  // padded to a length that is not a multiple of 4
        Case(text: "QU JD", bytes: nil, encoding: nil),
        Case(text: "QUJD\u{00E9}", bytes: nil, encoding: nil),
    ]

    @Test("decodes or refuses each segment form", arguments: cases)
    func decodes(_ testCase: Case) {
        let decoded = JWTBase64.decode(testCase.text[...])
        #expect(decoded?.bytes == testCase.bytes)
        #expect(decoded?.encoding == testCase.encoding)
    }

    @Test("base64url encoding round-trips every length")
    func roundTrip() {
        var generator = SplitMix64(seed: 7)
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let encoded = JWTBase64.encodeURL(bytes)
            #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
            #expect(JWTBase64.decode(encoded[...])?.bytes == bytes)
        }
    }
}
