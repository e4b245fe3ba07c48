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

/// Each reason's shared error body is the body written for it, and a rejection's response carries it.
@Suite struct ReasonErrorBodyTests {
    @Test(arguments: Reason.allCases)
    func theSharedBodyIsTheEncodedOne(reason: Reason) {
        #expect(reason.errorBodyBytes == ErrorBody(reason: reason.rawValue).encodedBytes)
        let response = Verdict.rejected(APNsRejection(reason, timestamp: 7), PushFindings())
            .response(apnsID: "A", uniqueID: "b")
        let timestamp: Int64? = reason.status == 410 ? 7 : nil
        #expect(response.body == ErrorBody(reason: reason.rawValue, timestamp: timestamp).encodedBytes)
        #expect(response.headers.map(\.name) == ["content-type", "apns-id", "apns-unique-id"])
    }
}
