import APNSJSON
import APNSStore
import Foundation

/// One request the mock recorded, as the graders see it: made from a `DeliveryRecord` the admin API served
/// (`GET /api/deliveries`), or written by hand in a test, so the graders need no store.
public struct ObservedRequest: Sendable, Equatable {
    public struct Warning: Sendable, Equatable {
        public var code: String
        public var message: String
        public init(code: String, message: String) { self.code = code; self.message = message }
    }

    public var id: Int64
    /// Wall-clock receive time, nanoseconds since 1970.
    public var receivedAtNanos: Int64
    /// Time from receipt to the answer being ready.
    public var latencyMicroseconds: Int64
    public var connectionID: Int64
    public var method: String
    public var path: String
    public var deviceToken: String?
    /// Every header as it arrived (names lower-case), `authorization` reduced by the mock.
    public var headers: [(name: String, value: String)]
    /// The decoded JOSE header and claims of the provider token (JSON text), and the token's fingerprint.
    public var tokenHeader: String?
    public var tokenClaims: String?
    public var tokenFingerprint: String?
    public var payload: String?
    public var status: Int
    public var reason: String?
    public var apnsID: String
    public var warnings: [Warning]
    public var explanation: String?
    public var pushType: String?
    public var topic: String?
    /// What the simulated device did with a Live Activity push (`applied`, `ignoredOlderTimestamp`, …).
    public var liveActivityOutcome: String?
    public var liveActivityExplanation: String?
    /// The fault spec that produced this answer (JSON text), when the answer was injected rather than earned.
    public var injectedFault: String?
    /// What the rules would have answered had no fault fired (`200`, `400 BadDeviceToken`), from the record's
    /// `injected.rulesAnswer`; nil when no fault fired or the history did not say.
    public var rulesAnswer: String?

    public init(
        id: Int64, receivedAtNanos: Int64, latencyMicroseconds: Int64 = 100, connectionID: Int64, method: String = "POST",
        path: String? = nil, deviceToken: String?, headers: [(name: String, value: String)] = [], tokenHeader: String? = nil,
        tokenClaims: String? = nil, tokenFingerprint: String? = nil, payload: String? = nil, status: Int = 200,
        reason: String? = nil, apnsID: String = "", warnings: [Warning] = [], explanation: String? = nil,
        pushType: String? = nil, topic: String? = nil, liveActivityOutcome: String? = nil,
        liveActivityExplanation: String? = nil, injectedFault: String? = nil, rulesAnswer: String? = nil
    ) {
        self.id = id
        self.receivedAtNanos = receivedAtNanos
        self.latencyMicroseconds = latencyMicroseconds
        self.connectionID = connectionID
        self.method = method
        self.path = path ?? "/3/device/\(deviceToken ?? "")"
        self.deviceToken = deviceToken
        self.headers = headers
        self.tokenHeader = tokenHeader
        self.tokenClaims = tokenClaims
        self.tokenFingerprint = tokenFingerprint
        self.payload = payload
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
        self.warnings = warnings
        self.explanation = explanation
        self.pushType = pushType
        self.topic = topic
        self.liveActivityOutcome = liveActivityOutcome
        self.liveActivityExplanation = liveActivityExplanation
        self.injectedFault = injectedFault
        self.rulesAnswer = rulesAnswer
    }

    public static func == (lhs: ObservedRequest, rhs: ObservedRequest) -> Bool {
        lhs.id == rhs.id && lhs.receivedAtNanos == rhs.receivedAtNanos && lhs.connectionID == rhs.connectionID
            && lhs.status == rhs.status && lhs.payload == rhs.payload && lhs.reason == rhs.reason
    }

    /// When the answer was ready.
    public var answeredAtNanos: Int64 { receivedAtNanos + latencyMicroseconds * 1000 }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name }?.value
    }

    /// `apns-priority`, 10 when absent (APNs' default, A-SEND).
    public var priority: Int { header("apns-priority").flatMap { Int($0) } ?? 10 }

    /// The same notification sent again is the same token and the same bytes: that is what a retry looks like.
    public var pushKey: String { "\(deviceToken ?? "-")\u{0}\(payload ?? "")" }

    /// Whether a fault fired on this request (it may or may not have changed the answer).
    public var isInjected: Bool { injectedFault != nil }

    /// The answer as the mock summarises it: `200`, `400 BadDeviceToken`, or `0 ` when no answer was sent.
    public var answerSummary: String { status == 200 ? "200" : "\(status) \(reason ?? "")" }

    /// Whether a fault, not the sender's request, decided the answer: a fault fired and the answer differs from
    /// the rules' (a delay, a GOAWAY after the answer or a SETTINGS change leave the rules' answer as it was).
    /// Without the rules' answer in the history, by the fault's kind.
    public var answerWasInjected: Bool {
        guard let fault = injectedFault else { return false }
        if let rulesAnswer { return answerSummary.trimmingCharacters(in: .whitespaces) != rulesAnswer.trimmingCharacters(in: .whitespaces) }
        let keepsTheAnswer = fault.contains("\"delayMs\"") || fault.contains("\"maxConcurrentStreams\"")
            || (fault.contains("\"goaway\"") && fault.contains("\"after\":\"answer\""))
        return !keepsTheAnswer
    }

    /// Whether the injected fault closed the connection (GOAWAY or close) after this answer.
    public var endedConnection: Bool {
        guard let fault = injectedFault else { return false }
        return fault.contains("\"goaway\"") || fault.contains("\"goAway\"") || fault.contains("\"closeConnection\"")
    }

    public var isLiveActivity: Bool { pushType == "liveactivity" }

    /// The payload's `aps` object, when the payload is a JSON object with one.
    public var aps: JSONValue? {
        guard let payload, let aps = JSONValue.parse(Array(payload.utf8))?["aps"], aps.isObject else { return nil }
        return aps
    }
}

extension ObservedRequest {
    /// Every delivery of an admin API list (`{"deliveries":[…]}`) or of a bare array, oldest first, read by the
    /// delivery record's own reader (`DeliveryRecord`'s `Codable` form).
    public static func parseList(_ data: Data) throws -> [ObservedRequest] {
        let top = try JSONParser.parse(Array(data))
        var list = JSONWriter()
        list.value(top["deliveries"] ?? top)
        return try JSONDecoding.decode([DeliveryRecord].self, from: Data(list.bytes))
            .map(ObservedRequest.init).sorted { $0.id < $1.id }
    }
}
