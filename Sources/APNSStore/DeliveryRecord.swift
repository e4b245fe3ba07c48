import APNSCore
import Foundation

/// Everything the mock knows about one request it answered, accepted or not: what arrived, on which connection,
/// what the mock answered and why. Immutable once built; the store assigns `id`.
///
/// Source: issue 6 ("The record"). The `authorization` header is never stored whole: the pipeline replaces its
/// value in `headers` with a reduced form and passes the decoded JWT in `providerToken`.
public struct DeliveryRecord: Sendable, Hashable, Codable {
    /// Monotonic, assigned by the store when the record is appended (the value passed to `append` is ignored).
    public let id: Int64
    /// Wall-clock receive time of the request's first HEADERS frame.
    public let receivedAt: Timestamp
    public let connectionID: UInt64
    /// `127.0.0.1:53422`.
    public let clientAddress: String
    /// The environment of the listener that accepted the connection.
    public let environment: APNsEnvironment?
    /// ALPN / TLS facts; nil for cleartext (h2c).
    public let tls: TLSInfo?
    public let method: String
    public let path: String
    /// The device token from the path, if the path had one.
    public let deviceToken: String?
    /// Every header in arrival order, `authorization` reduced (never the raw token).
    public let headers: [HeaderField]
    /// The decoded provider token (JWT) that came in `authorization`, if any.
    public let providerToken: ProviderTokenSummary?
    /// The request body as received (at most the transport's buffering limit).
    public let payload: [UInt8]
    /// HTTP status the mock answered; 0 when no HTTP answer was sent (a fault reset the stream, closed the
    /// connection or never answered), shown as `"status": null` in JSON.
    public let status: Int
    /// The wire `reason` string of the error body; nil on 200. A string, not `Reason`, because strict mode answers
    /// with the mock's own labels.
    public let reason: String?
    /// The `apns-id` the mock answered with (the client's, or one the mock generated).
    public let apnsID: String
    /// `apns-unique-id` answered in the development environment (A-RESP), if any.
    public let apnsUniqueID: String?
    public let warnings: [PushWarning]
    /// A sentence a person can act on: why this was rejected, or what the device will make of it.
    public let explanation: String?
    /// The identifier of the validation rule that decided the answer (nil when accepted without remarks).
    public let ruleID: String?
    /// Whether strict mode was on for this request.
    public let strict: Bool
    /// `apns-push-type` as sent.
    public let pushType: String?
    /// `apns-topic` as sent.
    public let topic: String?
    /// What the simulated device did with a Live Activity push (applied, ignored as stale, ...).
    public let liveActivity: LiveActivityOutcome?
    /// Time from receiving the request to the answer being ready, in microseconds.
    public let latencyMicroseconds: Int64
    /// Set when fault injection produced the answer (or withheld it).
    public let injected: InjectedFault?

    public init(
        id: Int64 = 0, receivedAt: Timestamp, connectionID: UInt64, clientAddress: String,
        environment: APNsEnvironment? = nil, tls: TLSInfo? = nil, method: String, path: String,
        deviceToken: String?, headers: [HeaderField], providerToken: ProviderTokenSummary? = nil,
        payload: [UInt8], status: Int, reason: String?, apnsID: String, apnsUniqueID: String? = nil,
        warnings: [PushWarning] = [], explanation: String? = nil, ruleID: String? = nil, strict: Bool = false,
        pushType: String?, topic: String?, liveActivity: LiveActivityOutcome? = nil, latencyMicroseconds: Int64,
        injected: InjectedFault? = nil
    ) {
        self.id = id
        self.receivedAt = receivedAt
        self.connectionID = connectionID
        self.clientAddress = clientAddress
        self.environment = environment
        self.tls = tls
        self.method = method
        self.path = path
        self.deviceToken = deviceToken
        self.headers = headers
        self.providerToken = providerToken
        self.payload = payload
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
        self.apnsUniqueID = apnsUniqueID
        self.warnings = warnings
        self.explanation = explanation
        self.ruleID = ruleID
        self.strict = strict
        self.pushType = pushType
        self.topic = topic
        self.liveActivity = liveActivity
        self.latencyMicroseconds = latencyMicroseconds
        self.injected = injected
    }

    /// APNs accepted the push (status 200).
    public var accepted: Bool { status == 200 }

    /// The payload as text when it is valid UTF-8.
    public var payloadText: String? { String(validating: payload, as: UTF8.self) }

    /// A copy with the id the store assigned.
    func withID(_ newID: Int64) -> DeliveryRecord {
        DeliveryRecord(
            id: newID, receivedAt: receivedAt, connectionID: connectionID, clientAddress: clientAddress,
            environment: environment, tls: tls, method: method, path: path, deviceToken: deviceToken,
            headers: headers, providerToken: providerToken, payload: payload, status: status, reason: reason,
            apnsID: apnsID, apnsUniqueID: apnsUniqueID, warnings: warnings, explanation: explanation,
            ruleID: ruleID, strict: strict, pushType: pushType, topic: topic, liveActivity: liveActivity,
            latencyMicroseconds: latencyMicroseconds, injected: injected)
    }
}

/// The provider token (JWT) of a request, reduced to what helps a person debug it. The signature and the raw token
/// are never kept.
public struct ProviderTokenSummary: Sendable, Hashable, Codable {
    /// The decoded JOSE header as JSON text (`{"alg":"ES256","kid":"ABC123DEFG"}`), or nil if it did not decode.
    public let header: String?
    /// The decoded claims as JSON text (`{"iss":"TEAM123456","iat":1767225600}`), or nil if they did not decode.
    public let claims: String?
    /// A stable fingerprint of the whole token (e.g. the first 16 hex digits of its SHA-256), to tell tokens apart.
    public let fingerprint: String

    public init(header: String?, claims: String?, fingerprint: String) {
        self.header = header
        self.claims = claims
        self.fingerprint = fingerprint
    }
}

/// What the simulated device did with a Live Activity push.
public struct LiveActivityOutcome: Sendable, Hashable, Codable {
    /// Stable code, e.g. `applied`, `ignored-stale-timestamp`, `ended`.
    public let code: String
    public let explanation: String

    public init(code: String, explanation: String) {
        self.code = code
        self.explanation = explanation
    }
}
