@testable import APNSCore
import APNSJSON
import Testing

/// The payload check done in two steps (before and under the device's lock), the one-pass `aps` reader and the
/// size bound that spares measuring: each gives what the check gave in one piece.
@Suite struct PreparedPayloadCheckTests {
    typealias P = TestPayloads

    /// Every documented `aps` key is known but `content-changed` (a widget key); near misses (case, length, a
    /// prefix) are not.
    @Test(arguments: APNSCore.APSKey.known.keys.sorted())
    func everyDocumentedKeyIsKnown(_ key: String) {
        // Read into a value first: `APSMembers` is not copyable, and `#expect` would copy what it looks into.
        let unknown = APSMembers([JSONMember(key, .null)]).hasUnknownKey
        #expect(unknown == (key == "content-changed"))
    }

    @Test(arguments: ["", "Event", "events", "even", "alerts", "timeStamp", "content_state", "stale-dates", "attribute",
                      "input-push-tokens", "state-date", "relevance-scor", "interruption-levels", "ALERT", "category "])
    func aNearMissIsUnknown(_ key: String) {
        let unknown = APSMembers([JSONMember(key, .null)]).hasUnknownKey
        #expect(unknown)
        #expect(APSMembers.Key(key) == nil)
    }

    @Test func theFirstOfDuplicateKeysWinsAndUnknownKeysAreNoted() throws {
        let aps = try #require(JSONValue.parse(Array(
            #"{"event":"update","event":"end","timestamp":1,"timestamp":"x","custom":1}"#.utf8))?.members)
        let members = APSMembers(aps)
        let (event, timestamp, unknown) = (members.event, members.timestamp, members.hasUnknownKey)
        #expect(event == .string("update"))
        #expect(timestamp == .number("1"))
        #expect(unknown)
        let knownOnly = APSMembers(Array(aps.prefix(4))).hasUnknownKey
        #expect(!knownOnly)
    }

    /// The older-than-applied warning, added under the lock, goes after the timestamp's own warnings and before
    /// the dates', as the one-piece check ordered them.
    @Test func theOlderWarningKeepsItsPlace() {
        let payload = P.update(timestamp: P.nowSeconds + 3 * 3600, extra: #","stale-date":1767222000,"attributes":{}"#)
        let context = LiveActivityCheckContext(
            now: P.now, schemas: [], lastAppliedTimestamp: Double(P.nowSeconds + 4 * 3600))
        let report = LiveActivityPayloadChecker.check(payload: Array(payload.utf8), context: context)
        #expect(report.warnings.map(\.code) == [
            LiveActivityWarningCode.timestampFuture, .timestampOlderThanApplied, .staleDatePast, .attributesIgnored,
            .contentStateUnchecked,
        ].map(\.rawValue))
        #expect(report.isOlderThanApplied)
    }

    struct SizeCase: Sendable, CustomStringConvertible {
        var description: String
        var payload: String
        var activityAttributes: JSONValue? = nil
        var tooLarge: Bool
    }

    /// Within three times the body's bytes nothing is measured; each side of the limit is still told apart.
    static let sizeCases: [SizeCase] = [
        SizeCase(description: "small update", payload: P.update(), tooLarge: false),
        // 700 × `\b`: 1,400 bytes sent, 4,200 written compact, over the limit.
        SizeCase(description: "escapes that grow", payload: P.update(
            state: #"{"progress":1,"eta":788918400,"note":"\#(String(repeating: #"\b"#, count: 700))"}"#), tooLarge: true),
        SizeCase(description: "escapes just within", payload: P.update(
            state: #"{"progress":1,"eta":788918400,"note":"\#(String(repeating: #"\b"#, count: 660))"}"#), tooLarge: false),
        SizeCase(description: "start with large attributes", payload: P.start(
            attributes: #"{"orderID":"\#(String(repeating: #"\b"#, count: 690))"}"#), tooLarge: true),
        SizeCase(description: "update with large stored attributes", payload: P.update(),
                 activityAttributes: .object([JSONMember("orderID", .string(String(repeating: "y", count: 4090)))]),
                 tooLarge: true),
        SizeCase(description: "update with small stored attributes", payload: P.update(),
                 activityAttributes: .object([JSONMember("orderID", .string("A1"))]), tooLarge: false),
    ]

    @Test(arguments: sizeCases) func combinedSize(_ check: SizeCase) throws {
        let bytes = Array(check.payload.utf8)
        let context = LiveActivityCheckContext(now: P.now, activityAttributes: check.activityAttributes)
        let report = LiveActivityPayloadChecker.check(payload: bytes, parsed: try JSONParser.parse(bytes), context: context)
        let payload = try #require(report.payload)
        let staticBytes = (payload.event == .start ? payload.attributes : check.activityAttributes)?.compactByteCount ?? 0
        let measured = staticBytes + (payload.contentState?.compactByteCount ?? 0)
        #expect((measured > LiveActivityPayloadChecker.activityDataLimit) == check.tooLarge)
        #expect(report.warnings.contains { $0.code == LiveActivityWarningCode.activityDataTooLarge.rawValue }
                == check.tooLarge)
    }

    /// A push prepared before a configuration change (schemas, tolerance, time) is checked again under the lock
    /// with the configuration in force.
    @Test func aCheckPreparedWithAnotherConfigurationIsDoneAgain() {
        let push = LiveActivityPush(
            deviceToken: "ab", topic: "t", priority: 5, apnsID: "1", payload: Array(P.update(timestamp: P.nowSeconds + 7200).utf8))
        var state = LiveActivityDeviceState(configuration: LiveActivityConfiguration(schemas: [P.delivery]))
        var stale = PreparedPush(push, now: P.now, schemas: [], futureTimestampTolerance: 3 * 3600)
        let wasPrepared = stale.check.wasPrepared(for: state.configuration, now: P.now)
        #expect(!wasPrepared)
        let received = state.receive(push, taking: &stale, now: P.now) { _ in true }
        let expected = LiveActivityPayloadChecker.check(
            payload: push.payload, context: LiveActivityCheckContext(now: P.now, schemas: [P.delivery])).warnings
        #expect(received.warnings == expected)
        #expect(expected.contains { $0.code == LiveActivityWarningCode.timestampFuture.rawValue })
        #expect(!expected.contains { $0.code == LiveActivityWarningCode.contentStateUnchecked.rawValue })
    }

    /// Setting the device's configuration reaches the checks it prepares before its lock.
    @Test func theDevicesNewConfigurationReachesItsChecks() {
        let device = LiveActivityDevice()
        let push = LiveActivityPush(
            deviceToken: "ab", topic: "t", priority: 5, apnsID: "1", payload: Array(P.update().utf8))
        let before = device.receive(push, now: P.now).warnings.map(\.code)
        device.configuration.schemas = [P.delivery]
        let after = device.receive(push, now: P.now).warnings.map(\.code)
        #expect(before == [LiveActivityWarningCode.contentStateUnchecked.rawValue])
        #expect(after.isEmpty)
    }
}
