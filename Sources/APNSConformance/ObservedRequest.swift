import Foundation

/// One request the mock recorded, as the admin API's delivery JSON gives it (`GET /api/deliveries`). The graders
/// read only this, so they stay independent of the store's own types and can be fed hand-written histories.
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

    public init(
        id: Int64, receivedAtNanos: Int64, latencyMicroseconds: Int64 = 100, connectionID: Int64, method: String = "POST",
        path: String? = nil, deviceToken: String?, headers: [(name: String, value: String)] = [], tokenHeader: String? = nil,
        tokenClaims: String? = nil, tokenFingerprint: String? = nil, payload: String? = nil, status: Int = 200,
        reason: String? = nil, apnsID: String = "", warnings: [Warning] = [], explanation: String? = nil,
        pushType: String? = nil, topic: String? = nil, liveActivityOutcome: String? = nil,
        liveActivityExplanation: String? = nil, injectedFault: String? = nil
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

    /// Whether a fault spec, not the rules, produced this answer.
    public var isInjected: Bool { injectedFault != nil }

    /// Whether the injected fault closed the connection (GOAWAY or close) after this answer.
    public var endedConnection: Bool {
        guard let fault = injectedFault else { return false }
        return fault.contains("\"goaway\"") || fault.contains("\"goAway\"") || fault.contains("\"closeConnection\"")
    }

    public var isLiveActivity: Bool { pushType == "liveactivity" }

    /// The payload's `aps` object, when the payload is a JSON object with one.
    public var aps: [String: Any]? {
        guard let payload, let data = payload.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["aps"] as? [String: Any]
    }
}

extension ObservedRequest {
    /// Builds the request from one delivery object of the admin API (`receivedAtNanos`, `connectionId`, …).
    public init?(adminJSON object: [String: Any]) {
        func int(_ key: String) -> Int64? { (object[key] as? NSNumber)?.int64Value }
        func string(_ key: String) -> String? { object[key] as? String }
        guard let id = int("id"), let received = int("receivedAtNanos"), let status = int("status") else { return nil }
        let headers = (object["headers"] as? [[String: Any]] ?? []).compactMap { entry -> (name: String, value: String)? in
            guard let name = entry["name"] as? String, let value = entry["value"] as? String else { return nil }
            return (name, value)
        }
        let token = object["providerToken"] as? [String: Any]
        // The admin API serves the decoded JWT header and claims as JSON objects (older servers: as JSON text).
        func tokenPart(_ key: String) -> String? {
            guard let value = token?[key] else { return nil }
            if let text = value as? String { return text }
            guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
        let outcome = object["liveActivity"] as? [String: Any]
        var injected: String?
        if let fault = object["injected"], let data = try? JSONSerialization.data(withJSONObject: fault, options: [.sortedKeys]) {
            injected = String(decoding: data, as: UTF8.self)
        }
        self.init(
            id: id, receivedAtNanos: received, latencyMicroseconds: int("latencyMicroseconds") ?? 0,
            connectionID: int("connectionId") ?? 0, method: string("method") ?? "POST", path: string("path") ?? "",
            deviceToken: string("deviceToken"), headers: headers, tokenHeader: tokenPart("header"),
            tokenClaims: tokenPart("claims"), tokenFingerprint: token?["fingerprint"] as? String,
            payload: string("payload"), status: Int(status), reason: string("reason"), apnsID: string("apnsId") ?? "",
            warnings: (object["warnings"] as? [[String: Any]] ?? []).map {
                Warning(code: $0["code"] as? String ?? "", message: $0["message"] as? String ?? "")
            },
            explanation: string("explanation"), pushType: string("pushType"), topic: string("topic"),
            liveActivityOutcome: outcome?["code"] as? String, liveActivityExplanation: outcome?["explanation"] as? String,
            injectedFault: injected)
    }

    /// The decoded JWT header or claims: JSON text in the stored form (export), a JSON object in the admin API's
    /// lists; objects are written back as text (an integer `iat` stays an integer, a string stays a string).
    static func jsonText(_ value: Any?) -> String? {
        if let text = value as? String { return text }
        guard let object = value as? [String: Any],
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Every delivery of an admin API list (`{"deliveries":[…]}`) or of a bare array, oldest first.
    public static func parseList(_ data: Data) throws -> [ObservedRequest] {
        let top = try JSONSerialization.jsonObject(with: data)
        let list = (top as? [String: Any])?["deliveries"] as? [[String: Any]] ?? top as? [[String: Any]] ?? []
        return list.compactMap(ObservedRequest.init(adminJSON:)).sorted { $0.id < $1.id }
    }
}
