import Foundation

/// Everything the mock knows about one request it answered, accepted or not: what arrived, on which connection,
/// what the mock answered and why. Read-only outside the store, which assigns `id`. Its JSON form, search text and
/// SQLite columns derive from one field table, `DeliveryRecord.fields` (DeliveryRecord+Fields.swift).
///
/// The `authorization` header is never stored whole: the pipeline replaces its
/// value in `headers` with a reduced form and passes the decoded JWT in `providerToken`.
public struct DeliveryRecord: Sendable, Hashable, Codable {
    /// Monotonic, assigned by the store when the record is appended (the value passed to `append` is ignored).
    public internal(set) var id: Int64
    /// Wall-clock receive time of the request's first HEADERS frame.
    public internal(set) var receivedAt: Timestamp
    public internal(set) var connectionID: UInt64
    /// `127.0.0.1:53422`.
    public internal(set) var clientAddress: String
    /// The environment of the listener that accepted the connection.
    public internal(set) var environment: Optional<APNsEnvironment>
    /// ALPN / TLS facts; nil for cleartext (h2c).
    public internal(set) var tls: Optional<TLSInfo>
    public internal(set) var method: String
    public internal(set) var path: String
    /// The device token from the path, if the path had one.
    public internal(set) var deviceToken: Optional<String>
    /// Every header in arrival order, `authorization` reduced (never the raw token).
    public internal(set) var headers: [HeaderField]
    /// The decoded provider token (JWT) that came in `authorization`, if any.
    public internal(set) var providerToken: Optional<ProviderTokenSummary>
    /// The request body as received (at most the transport's buffering limit).
    public internal(set) var payload: [UInt8]
    /// HTTP status the mock answered; 0 when no HTTP answer was sent (a fault reset the stream, closed the
    /// connection or never answered), shown as `"status": null` in JSON.
    public internal(set) var status: Int
    /// The wire `reason` string of the error body; nil on 200. A string, not `Reason`, because strict mode answers
    /// with the mock's own labels.
    public internal(set) var reason: Optional<String>
    /// The `apns-id` the mock answered with (the client's, or one the mock generated).
    public internal(set) var apnsID: String
    /// `apns-unique-id` answered in the development environment (A-RESP), if any.
    public internal(set) var apnsUniqueID: Optional<String>
    public internal(set) var warnings: [PushWarning]
    /// A sentence a person can act on: why this was rejected, or what the device will make of it.
    public internal(set) var explanation: Optional<String>
    /// The identifier of the validation rule that decided the answer (nil when accepted without remarks).
    public internal(set) var ruleID: Optional<String>
    /// Whether strict mode was on for this request.
    public internal(set) var strict: Bool
    /// `apns-push-type` as sent.
    public internal(set) var pushType: Optional<String>
    /// `apns-topic` as sent.
    public internal(set) var topic: Optional<String>
    /// What the simulated device did with a Live Activity push (applied, ignored as stale, ...).
    public internal(set) var liveActivity: Optional<RecordedLiveActivityOutcome>
    /// Time from receiving the request to the answer being ready, in microseconds.
    public internal(set) var latencyMicroseconds: Int64
    /// Set when fault injection produced the answer (or withheld it).
    public internal(set) var injected: Optional<InjectedFault>
    /// The client certificate the connection presented (certificate-based authentication), if any.
    public internal(set) var clientCertificate: Optional<ClientCertificateSummary>

    public init(
        id: Int64 = 0, receivedAt: Timestamp, connectionID: UInt64, clientAddress: String,
        environment: APNsEnvironment? = nil, tls: TLSInfo? = nil, method: String, path: String,
        deviceToken: String?, headers: [HeaderField], providerToken: ProviderTokenSummary? = nil,
        payload: [UInt8], status: Int, reason: String?, apnsID: String, apnsUniqueID: String? = nil,
        warnings: [PushWarning] = [], explanation: String? = nil, ruleID: String? = nil, strict: Bool = false,
        pushType: String?, topic: String?, liveActivity: RecordedLiveActivityOutcome? = nil, latencyMicroseconds: Int64,
        injected: InjectedFault? = nil, clientCertificate: ClientCertificateSummary? = nil
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
        self.clientCertificate = clientCertificate
    }

    /// APNs accepted the push (status 200).
    public var accepted: Bool { status == 200 }

    /// The payload as text when it is valid UTF-8.
    public var payloadText: String? { String(validating: payload, as: UTF8.self) }

    /// A copy with the id the store assigned.
    public func withID(_ newID: Int64) -> DeliveryRecord {
        var copy = self
        copy.id = newID
        return copy
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

/// What the simulated device did with a Live Activity push, as recorded (`code` is a `LiveActivityOutcome` raw value).
public struct RecordedLiveActivityOutcome: Sendable, Hashable, Codable {
    /// Stable code, e.g. `applied`, `ignored-stale-timestamp`, `ended`.
    public let code: String
    public let explanation: String

    public init(code: String, explanation: String) {
        self.code = code
        self.explanation = explanation
    }
}
