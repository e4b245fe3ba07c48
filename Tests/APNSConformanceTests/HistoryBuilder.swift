@testable import APNSConformance

/// Builds fake delivery histories: one request per call, 1 second apart unless told, on connection 1.
struct HistoryBuilder {
    static let tokenA = String(repeating: "a", count: 64)
    static let tokenB = String(repeating: "b", count: 64)
    static let base: Int64 = 1_767_225_600 * 1_000_000_000
    static let header = #"{"alg":"ES256","kid":"ABC123DEFG"}"#

    var requests: [ObservedRequest] = []
    var clock: Int64 = base

    static func claims(_ iat: String) -> String { #"{"iss":"TEAM123456","iat":\#(iat)}"# }

    static func liveActivity(event: String, timestamp: String, extra: String = "") -> String {
        #"{"aps":{"event":"\#(event)","timestamp":\#(timestamp),"content-state":{"n":1}\#(extra)}}"#
    }

    static let start = liveActivity(event: "start", timestamp: "1767225600", extra: #","attributes-type":"A","attributes":{"x":1},"alert":{"title":"t","body":"b"}"#)

    @discardableResult
    mutating func add(
        token: String = tokenA, payload: String = #"{"aps":{"alert":"hi"}}"#, status: Int = 200, reason: String? = nil,
        connection: Int64 = 1, after gap: Int64 = 1_000_000_000, latencyMicros: Int64 = 100, fingerprint: String = "f1",
        claims: String? = nil, header: String = HistoryBuilder.header, pushType: String = "alert", outcome: String? = nil,
        warnings: [ObservedRequest.Warning] = [], injected: String? = nil, rulesAnswer: String? = nil,
        apnsID: String = "", headers extra: [(name: String, value: String)] = []
    ) -> Int64 {
        clock += gap
        let id = Int64(requests.count + 1)
        requests.append(ObservedRequest(
            id: id, receivedAtNanos: clock, latencyMicroseconds: latencyMicros, connectionID: connection, deviceToken: token,
            headers: [("apns-topic", "com.example.app"), ("apns-push-type", pushType)] + extra, tokenHeader: header,
            tokenClaims: claims ?? Self.claims(String(clock / 1_000_000_000 - 60)), tokenFingerprint: fingerprint,
            payload: payload, status: status, reason: reason, apnsID: apnsID, warnings: warnings, pushType: pushType,
            topic: "com.example.app", liveActivityOutcome: outcome, liveActivityExplanation: outcome.map { "device said \($0)" },
            injectedFault: injected, rulesAnswer: rulesAnswer))
        return id
    }

    func grade(_ rule: ConformanceRule, context: RunContext = RunContext()) -> RuleResult {
        SenderGrader(context: context).grade(requests, selection: RuleSelection(only: [rule.id])).first!
    }
}
