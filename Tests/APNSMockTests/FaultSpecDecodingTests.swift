@testable import APNSCore
import APNSJSON
import HTTP2
import Foundation
import Testing
@testable import APNSMock

/// The fault spec JSON (docs/configuration.md, "Fault injection"): what is understood, and the exact error for
/// what is not, so a misspelled spec is never half-applied.
@Suite struct FaultSpecDecodingTests {
    static func decode(_ json: String) throws -> FaultSpec {
        guard let object = try JSONParser.parse(json).objectValue else {
            throw FaultSpecError("not an object")
        }
        return try FaultSpec(json: object)
    }

    static let valid: [(json: String, expected: FaultSpec)] = [
        (#"{"deviceToken":"AABB","status":410,"reason":"Unregistered"}"#,
         FaultSpec(match: FaultMatch(deviceToken: "aabb"), action: .answer(status: 410, reason: .unregistered, timestamp: nil, goAway: false))),
        (#"{"reason":"ServiceUnavailable","remaining":3}"#,
         FaultSpec(action: .answer(status: 503, reason: .serviceUnavailable, timestamp: nil, goAway: false), scope: FaultScope(remaining: 3))),
        (#"{"reason":"TooManyProviderTokenUpdates"}"#,
         FaultSpec(action: .answer(status: 429, reason: .tooManyProviderTokenUpdates, timestamp: nil, goAway: false))),
        (#"{"reason":"ExpiredProviderToken","keyID":"ABC123DEFG","teamID":"TEAM123456"}"#,
         FaultSpec(match: FaultMatch(keyID: "ABC123DEFG", teamID: "TEAM123456"), action: .answer(status: 403, reason: .expiredProviderToken, timestamp: nil, goAway: false))),
        (#"{"status":410,"reason":"Unregistered","timestamp":1767225600000}"#,
         FaultSpec(action: .answer(status: 410, reason: .unregistered, timestamp: 1_767_225_600_000, goAway: false))),
        (#"{"status":503,"reason":"Shutdown","goAway":true}"#,
         FaultSpec(action: .answer(status: 503, reason: .shutdown, timestamp: nil, goAway: true))),
        (#"{"status":200}"#, FaultSpec(action: .answer(status: 200, reason: nil, timestamp: nil, goAway: false))),
        (#"{"topic":"com.example.app","resetStream":"REFUSED_STREAM"}"#,
         FaultSpec(match: FaultMatch(topic: "com.example.app"), action: .resetStream(.REFUSED_STREAM))),
        (#"{"resetStream":"INTERNAL_ERROR","every":2}"#, FaultSpec(action: .resetStream(.INTERNAL_ERROR), scope: FaultScope(every: 2))),
        (#"{"blackHole":true,"connection":7}"#, FaultSpec(match: FaultMatch(connection: 7), action: .blackHole)),
        (#"{"delayMs":200}"#, FaultSpec(action: .delay(minMilliseconds: 200, maxMilliseconds: 200))),
        (#"{"delayMs":{"min":10,"max":50},"seed":3}"#, FaultSpec(action: .delay(minMilliseconds: 10, maxMilliseconds: 50), scope: FaultScope(seed: 3))),
        (#"{"goaway":{"reason":"Shutdown","after":"answer"}}"#, FaultSpec(action: .goAway(FaultGoAway()))),
        (#"{"goaway":{"reason":"Shutdown","after":"before","lastStreamID":1}}"#,
         FaultSpec(action: .goAway(FaultGoAway(after: .before, lastStreamID: 1)))),
        (#"{"goaway":{"afterStreams":100}}"#, FaultSpec(action: .goAway(FaultGoAway(afterStreams: 100)))),
        (#"{"closeConnection":true,"pushType":"liveactivity"}"#, FaultSpec(match: FaultMatch(pushType: "liveactivity"), action: .closeConnection)),
        (#"{"maxConcurrentStreams":1}"#, FaultSpec(action: .maxConcurrentStreams(1))),
        (#"{"blackHole":true,"seed":1}"#, FaultSpec(action: .blackHole, scope: FaultScope(seed: 1))),
        (#"{"deviceToken":"aa","unregisterAfter":2}"#, FaultSpec(match: FaultMatch(deviceToken: "aa"), action: .unregisterAfter(2))),
        (#"{"reason":"InternalServerError","probability":0.02,"seed":7}"#,
         FaultSpec(action: .answer(status: 500, reason: .internalServerError, timestamp: nil, goAway: false), scope: FaultScope(probability: 0.02, seed: 7))),
        (#"{"reason":"ServiceUnavailable","from":1767225600,"until":1767229200}"#,
         FaultSpec(action: .answer(status: 503, reason: .serviceUnavailable, timestamp: nil, goAway: false), scope: FaultScope(from: 1_767_225_600, until: 1_767_229_200))),
    ]

    @Test(arguments: valid.indices)
    func aValidSpecDecodesToItsMeaningAndReencodesToTheSameSpec(index: Int) throws {
        let (json, expected) = Self.valid[index]
        let spec = try Self.decode(json)
        #expect(spec == expected, "\(json)")
        #expect(try Self.decode(spec.jsonText) == spec, "the canonical form decodes back")
    }

    static let invalid: [(json: String, error: String)] = [
        (#"{"reason":"Unregisterd"}"#,
         #"unknown reason "Unregisterd" (did you mean "Unregistered"?): use a reason APNs sends, spelled as Apple spells it (docs/rules.md)"#),
        (#"{"deviceToken":"","status":410,"reason":"Unregistered"}"#,
         "deviceToken must not be empty (leave the key out to match every request)"),
        (#"{"topic":" ","blackHole":true}"#, "topic must not be empty (leave the key out to match every request)"),
        (#"{"deviceTokn":"aa","blackHole":true}"#,
         #"unknown key "deviceTokn" (did you mean "deviceToken"?); a fault spec takes the match keys deviceToken, topic, keyID, teamID, connection, pushType, exactly one action (status/reason, resetStream, blackHole, delayMs, goaway, closeConnection, maxConcurrentStreams, unregisterAfter) and the scope keys remaining, every, probability, seed, from, until"#),
        (#"{"deviceToken":"aa"}"#,
         "no action: give exactly one of status/reason, resetStream, blackHole, delayMs, goaway, closeConnection, maxConcurrentStreams, unregisterAfter"),
        (#"{"blackHole":true,"delayMs":5}"#, "more than one action (blackHole, delayMs): give exactly one"),
        (#"{"status":500}"#, "status 500 needs a reason: APNs always names one in the error body"),
        (#"{"status":200,"reason":"Unregistered"}"#, "status 200 carries no reason (reason Unregistered would be 410)"),
        (#"{"status":600,"reason":"Unregistered"}"#, "status must be in 200...599, got 600"),
        (#"{"status":503,"reason":"ServiceUnavailable","timestamp":5}"#, "timestamp is sent only with status 410 (A-RESP), not 503"),
        (#"{"resetStream":"REFUSED"}"#,
         #"resetStream "REFUSED" is not an HTTP/2 error code: use one of NO_ERROR, PROTOCOL_ERROR, INTERNAL_ERROR, FLOW_CONTROL_ERROR, SETTINGS_TIMEOUT, STREAM_CLOSED, FRAME_SIZE_ERROR, REFUSED_STREAM, CANCEL, COMPRESSION_ERROR, CONNECT_ERROR, ENHANCE_YOUR_CALM, INADEQUATE_SECURITY, HTTP_1_1_REQUIRED"#),
        (#"{"blackHole":false}"#, "blackHole must be true"),
        (#"{"blackHole":true,"goAway":true}"#, "goAway belongs to a status/reason answer, not to blackHole"),
        (#"{"delayMs":{"min":50,"max":10}}"#, "delayMs.min (50) must not exceed delayMs.max (10)"),
        (#"{"delayMs":{"min":5}}"#, "delayMs as a range needs both min and max"),
        (#"{"delayMs":-1}"#, "delayMs must be in 0...3600000, got -1"),
        (#"{"goaway":true}"#,
         #"goaway must be an object: {"reason": "Shutdown", "after": "answer"|"before", "lastStreamID"?: N, "afterStreams"?: N}"#),
        (#"{"goaway":{"when":"answer"}}"#, #"unknown key "goaway.when": goaway takes reason, after, lastStreamID, afterStreams"#),
        (#"{"goaway":{"after":"during"}}"#, #"goaway.after must be "answer" or "before", got "during""#),
        (#"{"goaway":{"reason":"shutdown"}}"#, #"unknown reason "shutdown" in goaway.reason (did you mean "Shutdown"?)"#),
        (#"{"pushType":"alerts","blackHole":true}"#,
         #"pushType "alerts" is not an APNs push type: use one of "# + PushType.allCases.map(\.rawValue).joined(separator: ", ")),
        (#"{"blackHole":true,"probability":1.5}"#, "probability must be between 0.0 and 1.0, got 1.5"),
        (#"{"blackHole":true,"remaining":0}"#, "remaining must be in 1...9223372036854775807, got 0"),
        (#"{"blackHole":true,"every":"2"}"#, "every must be an integer"),
        (#"{"blackHole":true,"from":10,"until":5}"#, "until (5.0) must be later than from (10.0)"),
        (#"{"unregisterAfter":1,"remaining":2}"#, "unregisterAfter takes only the scope keys from and until"),
        (#"{"deviceToken":7,"blackHole":true}"#, "deviceToken must be a string"),
    ]

    @Test(arguments: invalid.indices)
    func aSpecThatIsNotUnderstoodIsRefusedWithAClearError(index: Int) {
        let (json, message) = Self.invalid[index]
        #expect(throws: FaultSpecError(message), "\(json)") { try Self.decode(json) }
    }

    @Test func theConfigurationFileRefusesABadSpecAtStartUp() {
        let json = #"{"scriptedAnswers":[{"blackHole":true},{"reason":"Unregisterd"}]}"#
        #expect {
            try MockConfiguration.decode(Data(json.utf8), source: "test.json")
        } throws: { error in
            "\(error)".contains("configuration test.json: scriptedAnswers.Index 1: unknown reason \"Unregisterd\"")
        }
    }

    @Test func legacyScriptedAnswerKeysKeepWorkingInTheConfigurationFile() throws {
        let json = #"{"scriptedAnswers":[{"deviceToken":"aa","status":410,"reason":"Unregistered","remaining":1,"goAway":true}]}"#
        let configuration = try MockConfiguration.decode(Data(json.utf8))
        #expect(configuration.scriptedAnswers == [FaultSpec(
            match: FaultMatch(deviceToken: "aa"), action: .answer(status: 410, reason: .unregistered, timestamp: nil, goAway: true),
            scope: FaultScope(remaining: 1))])
    }
}

@Suite struct ConnectionFaultSettingsDecodingTests {
    @Test func theFaultsSectionOfTheConfigurationIsDecodedStrictly() throws {
        let good = try MockConfiguration.decode(Data(#"{"faults":{"handshakeStallMs":500,"maxConnections":2}}"#.utf8))
        #expect(good.faults == ConnectionFaultSettings(handshakeStallMs: 500, maxConnections: 2))
        #expect(throws: ConfigurationError.self) { try MockConfiguration.decode(Data(#"{"faults":{"handshakeStalMs":5}}"#.utf8)) }
        #expect(throws: ConfigurationError.self) { try MockConfiguration.decode(Data(#"{"faults":{"acceptDelayMs":-1}}"#.utf8)) }
    }
}
