import APNSJSON
import APNSCore
import Foundation

/// One request the mock recorded, as the graders see it: made from a `DeliveryRecord` the admin API served
/// (`GET /api/deliveries`), or written by hand in a test, so the graders need no store.
package struct ObservedRequest: Sendable, Equatable {
    package struct Warning: Sendable, Equatable {
        package var code: String
        package var message: String
        package init(code: String, message: String) { self.code = code; self.message = message }
    }

    package var id: Int64
    /// Wall-clock receive time, nanoseconds since 1970.
    package var receivedAtNanos: Int64
    /// Time from receipt to the answer being ready.
    package var latencyMicroseconds: Int64
    package var connectionID: Int64
    package var method: String
    package var path: String
    package var deviceToken: String?
    /// Every header as it arrived (names lower-case), `authorization` reduced by the mock.
    package var headers: [(name: String, value: String)]
    /// The decoded JOSE header and claims of the provider token (JSON text), and the token's fingerprint.
    package var tokenHeader: String?
    package var tokenClaims: String?
    package var tokenFingerprint: String?
    package var payload: String?
    package var status: Int
    package var reason: String?
    package var apnsID: String
    package var warnings: [Warning]
    package var explanation: String?
    package var pushType: String?
    package var topic: String?
    /// What the simulated device did with a Live Activity push (`applied`, `ignoredOlderTimestamp`, …).
    package var liveActivityOutcome: String?
    package var liveActivityExplanation: String?
    /// The fault spec that produced this answer (JSON text), when the answer was injected rather than earned.
    package var injectedFault: String?
    /// What the rules would have answered had no fault fired (`200`, `400 BadDeviceToken`), from the record's
    /// `injected.rulesAnswer`; nil when no fault fired or the history did not say.
    package var rulesAnswer: String?

    package init(
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

    package static func == (lhs: ObservedRequest, rhs: ObservedRequest) -> Bool {
        lhs.id == rhs.id && lhs.receivedAtNanos == rhs.receivedAtNanos && lhs.connectionID == rhs.connectionID
            && lhs.status == rhs.status && lhs.payload == rhs.payload && lhs.reason == rhs.reason
    }

    /// When the answer was ready.
    package var answeredAtNanos: Int64 { receivedAtNanos + latencyMicroseconds * 1000 }

    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name }?.value
    }

    /// `apns-priority`, 10 when absent (APNs' default, A-SEND).
    package var priority: Int { header("apns-priority").flatMap { Int($0) } ?? 10 }

    /// The same notification sent again is the same token and the same bytes: that is what a retry looks like.
    package var pushKey: String { "\(deviceToken ?? "-")\u{0}\(payload ?? "")" }

    /// Whether a fault fired on this request (it may or may not have changed the answer).
    package var isInjected: Bool { injectedFault != nil }

    /// The answer as the mock summarises it: `200`, `400 BadDeviceToken`, or `0 ` when no answer was sent.
    package var answerSummary: String { status == 200 ? "200" : "\(status) \(reason ?? "")" }

    /// Whether a fault, not the sender's request, decided the answer: a fault fired and the answer differs from
    /// the rules' (a delay, a GOAWAY after the answer or a SETTINGS change leave the rules' answer as it was).
    /// Without the rules' answer in the history, by the fault's kind.
    package var answerWasInjected: Bool {
        guard let fault = injectedFault else { return false }
        if let rulesAnswer { return answerSummary.trimmingCharacters(in: .whitespaces) != rulesAnswer.trimmingCharacters(in: .whitespaces) }
        let keepsTheAnswer = fault.contains("\"delayMs\"") || fault.contains("\"maxConcurrentStreams\"")
            || (fault.contains("\"goaway\"") && fault.contains("\"after\":\"answer\""))
        return !keepsTheAnswer
    }

    /// Whether the injected fault closed the connection (GOAWAY or close) after this answer.
    package var endedConnection: Bool {
        guard let fault = injectedFault else { return false }
        return fault.contains("\"goaway\"") || fault.contains("\"goAway\"") || fault.contains("\"closeConnection\"")
    }

    package var isLiveActivity: Bool { pushType == "liveactivity" }

    /// The payload's `aps` object, when the payload is a JSON object with one.
    package var aps: JSONValue? {
        guard let payload, let aps = JSONValue.parse(Array(payload.utf8))?["aps"], aps.isObject else { return nil }
        return aps
    }
}

extension ObservedRequest {
    /// Every delivery of an admin API list (`{"deliveries":[…]}`) or of a bare array, oldest first, read by the
    /// delivery record's own reader (`DeliveryRecord`'s `Codable` form).
    package static func parseList(_ data: Data) throws -> [ObservedRequest] {
        let top = try JSONParser.parse(Array(data))
        var list = JSONWriter()
        list.value(top["deliveries"] ?? top)
        return try JSONDecoding.decode([DeliveryRecord].self, from: Data(list.bytes))
            .map(ObservedRequest.init).sorted { $0.id < $1.id }
    }
}
