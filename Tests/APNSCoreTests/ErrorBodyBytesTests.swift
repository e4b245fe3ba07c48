import Foundation
import Testing

@testable import APNSCore

/// The error body written without `JSONEncoder` is byte for byte what the encoder wrote (sorted keys, unescaped
/// slashes), for Apple's reasons, a 410's timestamp, and reasons a fault spec could set.
@Suite struct ErrorBodyBytesTests {
    @Test(arguments: [
        ErrorBody(reason: "BadDeviceToken"), ErrorBody(reason: "Unregistered", timestamp: 1_767_225_600_123),
        ErrorBody(reason: "Unregistered", timestamp: -5), ErrorBody(reason: ""), ErrorBody(reason: "a/b c"),
        ErrorBody(reason: #"quote " and \ backslash"#), ErrorBody(reason: "line\nbreak"), ErrorBody(reason: "é😀"),
        ErrorBody(reason: "bell\u{07}", timestamp: 0),
    ])
    func bytesAreWhatTheEncoderWrites(body: ErrorBody) {
        #expect(body.jsonBytes == body.encodedBytes, "\(String(decoding: body.jsonBytes, as: UTF8.self))")
    }
}
