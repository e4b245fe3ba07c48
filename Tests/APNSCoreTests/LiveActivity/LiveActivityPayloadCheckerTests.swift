import APNSJSON
import APNSCore
import Testing

/// Every `la-*` warning, each from the smallest payload that should raise it.
@Suite struct LiveActivityPayloadCheckerTests {
    typealias P = TestPayloads

    struct Case: Sendable, CustomStringConvertible {
        var code: LiveActivityWarningCode
        var payload: String
        var schemas: [ActivitySchema] = [P.delivery, P.workout]
        var lastApplied: Double?
        var activityAttributes: JSONValue?
        var activityType: String? = "DeliveryAttributes"
        var phrase: String = ""
        var description: String { code.rawValue }
    }

    static let blob = String(repeating: "x", count: 4100)
    static let bigAttributes = JSONValue.object([JSONMember("orderID", .string(String(repeating: "y", count: 3000)))])

    static let cases: [Case] = [
        Case(code: .payloadNotJSON, payload: "aps=update"),
        Case(code: .apsMissing, payload: #"{"alert":"hi"}"#),
        Case(code: .apsUnknownKey, payload: P.update(extra: #","state-date":1767229200"#), phrase: #"Did you mean "stale-date"?"#),
        Case(code: .eventMissing, payload: #"{"aps":{"timestamp":1767225600,"content-state":\#(P.state)}}"#),
        Case(code: .eventInvalid, payload: #"{"aps":{"event":"Update","timestamp":1767225600}}"#, phrase: "lower case"),
        Case(code: .timestampMissing, payload: #"{"aps":{"event":"update","content-state":\#(P.state)}}"#, phrase: "1767225600"),
        Case(code: .timestampNotNumber, payload: #"{"aps":{"event":"update","timestamp":"1767225600","content-state":\#(P.state)}}"#),
        Case(code: .timestampMilliseconds, payload: P.update(timestamp: 1_767_225_600_000), phrase: "(1767225600)"),
        Case(code: .timestampOlderThanApplied, payload: P.update(timestamp: P.nowSeconds - 60), lastApplied: Double(P.nowSeconds),
             phrase: "the device ignores this update"),
        Case(code: .timestampFuture, payload: P.update(timestamp: P.nowSeconds + 3 * 3600), phrase: "3 h in the future"),
        Case(code: .attributesTypeMissing,
             payload: #"{"aps":{"event":"start","timestamp":1767225600,"attributes":{"orderID":"A"},"content-state":\#(P.state),"alert":"x"}}"#),
        Case(code: .attributesTypeMissing,
             payload: #"{"aps":{"event":"start","timestamp":1767225600,"attributes-type":5,"attributes":{"orderID":"A"},"content-state":\#(P.state),"alert":"x"}}"#,
             phrase: "without a string aps.attributes-type (it is a number):"),
        Case(code: .attributesTypeMissing,
             payload: #"{"aps":{"event":"start","timestamp":1767225600,"attributes-type":["D"],"attributes-type":"DeliveryAttributes","attributes":{"orderID":"A"},"content-state":\#(P.state),"alert":"x"}}"#,
             phrase: "aps.attributes-type (it is an array):"),
        Case(code: .attributesTypeUnknown, payload: P.start(type: "OrderAttributes"), phrase: "known: DeliveryAttributes, WorkoutAttributes"),
        Case(code: .attributesMissing,
             payload: #"{"aps":{"event":"start","timestamp":1767225600,"attributes-type":"DeliveryAttributes","content-state":\#(P.state),"alert":"x"}}"#),
        Case(code: .attributesInvalid, payload: P.start(attributes: #"{"orderID":5}"#), phrase: "attributes.orderID is a number"),
        Case(code: .attributesUnknownKey, payload: P.start(attributes: #"{"orderID":"A","orderId":"A"}"#), phrase: "attributes.orderId"),
        Case(code: .attributesUnixDate, payload: P.start(attributes: #"{"orderID":"A","createdAt":1767225600}"#), phrase: "2057-01-01"),
        Case(code: .attributesIgnored, payload: P.update(extra: #","attributes":{"orderID":"A"}"#)),
        Case(code: .alertMissing, payload: P.start(alert: false), phrase: "silently drops"),
        Case(code: .contentStateMissing, payload: #"{"aps":{"event":"update","timestamp":1767225600}}"#),
        Case(code: .contentStateInvalid, payload: P.update(state: #"{"eta":788918400}"#),
             phrase: #"missing key "progress" (Double) at content-state"#),
        Case(code: .contentStateUnknownKey, payload: P.update(state: #"{"progress":1,"eta":788918400,"ETA":1}"#), phrase: "content-state.ETA"),
        Case(code: .contentStateUnixDate, payload: P.update(state: #"{"progress":1,"eta":1767227400}"#),
             phrase: "decodes as 2057-01-01T00:30:00Z; ActivityKit reads seconds since 2001-01-01"),
        Case(code: .contentStateUnchecked, payload: P.update(), schemas: [], activityType: nil, phrase: "--activity-source"),
        Case(code: .inputPushBoth, payload: P.start(extra: #","input-push-token":1,"input-push-channel":"dHN0""#), phrase: "mutually exclusive"),
        Case(code: .inputPushNotStart, payload: P.update(extra: #","input-push-token":1"#)),
        Case(code: .staleDateNotNumber, payload: P.update(extra: #","stale-date":"soon""#)),
        Case(code: .staleDateMilliseconds, payload: P.update(extra: #","stale-date":1767229200000"#), phrase: "(1767229200)"),
        Case(code: .staleDatePast, payload: P.update(extra: #","stale-date":1767222000"#), phrase: "stale at once"),
        Case(code: .dismissalDateNotNumber, payload: P.end(extra: #","dismissal-date":"later""#)),
        Case(code: .dismissalDateMilliseconds, payload: P.end(extra: #","dismissal-date":1767229200000"#)),
        Case(code: .dismissalDateWithoutEnd, payload: P.update(extra: #","dismissal-date":1767229200"#)),
        Case(code: .relevanceScoreNotNumber, payload: P.update(extra: #","relevance-score":"high""#)),
        Case(code: .payloadTooLarge, payload: P.update(state: #"{"progress":1,"eta":788918400,"note":"\#(blob)"}"#), phrase: "413"),
        Case(code: .activityDataTooLarge, payload: P.update(state: #"{"progress":1,"eta":788918400,"note":"\#(String(repeating: "z", count: 1200))"}"#),
             activityAttributes: bigAttributes, phrase: "combined 4096-byte limit"),
    ]

    static func report(_ testCase: Case) -> LiveActivityPayloadReport {
        let context = LiveActivityCheckContext(
            now: P.now, schemas: testCase.schemas, activityAttributesType: testCase.activityType,
            activityAttributes: testCase.activityAttributes, lastAppliedTimestamp: testCase.lastApplied)
        return LiveActivityPayloadChecker.check(payload: Array(testCase.payload.utf8), context: context)
    }

    @Test(arguments: cases)
    func raisesTheWarning(_ testCase: Case) {
        let warnings = Self.report(testCase).warnings
        let matching = warnings.filter { $0.code == testCase.code.rawValue }
        #expect(matching.count == 1, "\(warnings)")
        if !testCase.phrase.isEmpty {
            #expect(matching.first?.message.contains(testCase.phrase) == true, "\(matching.first?.message ?? "")")
        }
    }

    /// The push rules parse each body once and hand the value on; the checker must reach the same findings from it
    /// as from the bytes.
    @Test(arguments: cases.filter { JSONValue.parse(Array($0.payload.utf8)) != nil })
    func readsTheRulesParseAsItsOwn(_ testCase: Case) {
        let context = LiveActivityCheckContext(
            now: P.now, schemas: testCase.schemas, activityAttributesType: testCase.activityType,
            activityAttributes: testCase.activityAttributes, lastAppliedTimestamp: testCase.lastApplied)
        let bytes = Array(testCase.payload.utf8)
        let reused = LiveActivityPayloadChecker.check(payload: bytes, parsed: JSONValue.parse(bytes), context: context)
        let own = LiveActivityPayloadChecker.check(payload: bytes, context: context)
        #expect(reused.warnings == own.warnings)
        #expect(reused.payload == own.payload)
    }

    @Test func usesTheGivenValueInsteadOfParsingTheBytesAgain() throws {
        let context = LiveActivityCheckContext(now: P.now)
        let given = try JSONParser.parse(P.end())
        let report = LiveActivityPayloadChecker.check(payload: Array("not parsed again".utf8), parsed: given, context: context)
        #expect(report.payload?.event == .end)
        #expect(!report.warnings.contains { $0.code == LiveActivityWarningCode.payloadNotJSON.rawValue })
    }

    /// Without schemas the unchecked warning comes from an array kept per thread: after other warnings it follows
    /// them, and a push checked on another thread gets the same warnings.
    @Test func uncheckedWarningWithoutSchemasFollowsEarlierOnesOnAnyThread() async {
        @Sendable func codes(_ payload: String) -> [String] {
            let context = LiveActivityCheckContext(now: P.now, schemas: [])
            return LiveActivityPayloadChecker.check(payload: Array(payload.utf8), context: context).warnings.map(\.code)
        }
        let start = #"{"aps":{"event":"start","timestamp":1767225600,"attributes-type":"DeliveryAttributes","alert":"x"}}"#
        let expected: [LiveActivityWarningCode] = [.contentStateMissing, .attributesMissing, .contentStateUnchecked]
        #expect(codes(start) == expected.map(\.rawValue))
        #expect(codes(P.update()) == [LiveActivityWarningCode.contentStateUnchecked.rawValue])
        let elsewhere = await Task.detached { (codes(start), codes(P.update())) }.value
        #expect(elsewhere.0 == codes(start))
        #expect(elsewhere.1 == codes(P.update()))
    }

    @Test func everyCodeHasACase() {
        #expect(Set(Self.cases.map(\.code)) == Set(LiveActivityWarningCode.allCases))
    }

    @Test func codesArePrefixedAndUnique() {
        let codes = LiveActivityWarningCode.allCases.map(\.rawValue)
        #expect(codes.allSatisfy { $0.hasPrefix("la-") })
        #expect(Set(codes).count == codes.count)
    }

    @Test(arguments: [P.update(), P.start(), P.end(extra: #","dismissal-date":1767229200"#),
                      P.update(extra: #","stale-date":1767229200,"relevance-score":75,"alert":{"title":"t"}"#)])
    func correctPayloadsRaiseNothing(_ payload: String) {
        let context = LiveActivityCheckContext(now: P.now, schemas: [P.delivery, P.workout], activityAttributesType: "DeliveryAttributes")
        let report = LiveActivityPayloadChecker.check(payload: Array(payload.utf8), context: context)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
    }

    @Test func endWithOlderTimestampIsFlaggedButNotCalledIgnored() {
        let context = LiveActivityCheckContext(
            now: P.now, schemas: [P.delivery], activityAttributesType: "DeliveryAttributes",
            lastAppliedTimestamp: Double(P.nowSeconds))
        let report = LiveActivityPayloadChecker.check(payload: Array(P.end(timestamp: P.nowSeconds - 5).utf8), context: context)
        #expect(report.isOlderThanApplied)
        #expect(report.warnings.first?.message.contains("observed to apply anyway") == true)
    }

    @Test func updateForAnUnseenActivityIsCheckedAgainstTheTypeItDecodesAs() {
        let context = LiveActivityCheckContext(now: P.now, schemas: [P.delivery, P.workout])
        let report = LiveActivityPayloadChecker.check(payload: Array(P.update(state: #"{"heartRate":120}"#).utf8), context: context)
        #expect(report.schema?.attributesType == "WorkoutAttributes")
        #expect(report.warnings.isEmpty)
        #expect(report.schemaNote?.contains("did not see this activity start") == true)
    }

    @Test func startDoesNotCompareWithAnEarlierActivitysTimestamp() {
        let context = LiveActivityCheckContext(now: P.now, schemas: [P.delivery], lastAppliedTimestamp: Double(P.nowSeconds + 100))
        let report = LiveActivityPayloadChecker.check(payload: Array(P.start().utf8), context: context)
        #expect(!report.isOlderThanApplied)
    }
}
