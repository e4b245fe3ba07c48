import Foundation

extension DeliveryRecord {
    /// The record of a request the pipeline answered: the request's receive time, connection, method, path,
    /// headers (`RecordedHeaders`: pseudo-headers first, `authorization` reduced) and body, with the answer.
    /// `redactions`: the connection's memo of its last redacted `authorization` value (nil: redact afresh).
    public init(
        request: HTTPRequest, redactions: AuthorizationRedactionMemo? = nil, environment: APNsEnvironment?,
        deviceToken: String?, providerToken: ProviderTokenSummary?, status: Int, reason: String?, apnsID: String,
        apnsUniqueID: String?, warnings: [PushWarning], explanation: String?, ruleID: String?, strict: Bool,
        pushType: String?, topic: String?, liveActivity: RecordedLiveActivityOutcome?, latencyMicroseconds: Int64,
        injected: InjectedFault?
    ) {
        // A client certificate is kept once, summarised (`clientCertificate`), so the TLS facts leave it out.
        let connectionTLS = request.connection.tls
        var tls = connectionTLS
        if tls?.clientCertificate != nil { tls?.clientCertificate = nil }
        self.init(
            receivedAt: request.receivedAt, connectionID: request.connection.id,
            clientAddress: request.connection.remoteAddress, environment: environment, tls: tls,
            method: request.method, path: request.path, deviceToken: deviceToken,
            headers: RecordedHeaders.of(request, redactions: redactions), providerToken: providerToken,
            payload: request.body, status: status, reason: reason, apnsID: apnsID, apnsUniqueID: apnsUniqueID,
            warnings: warnings, explanation: explanation, ruleID: ruleID, strict: strict, pushType: pushType,
            topic: topic, liveActivity: liveActivity, latencyMicroseconds: latencyMicroseconds, injected: injected,
            clientCertificate: connectionTLS?.clientCertificate.map(ClientCertificateSummary.init))
    }
}

/// The headers a delivery record keeps of a request: pseudo-headers first, then every header in arrival order; the
/// `authorization` value is never stored whole: it is reduced to its scheme and a fingerprint (the decoded JWT is
/// kept in `providerToken`).
public enum RecordedHeaders {
    /// How many headers `forEach` hands out.
    public static func count(_ request: HTTPRequest) -> Int {
        2 + (request.scheme == nil ? 0 : 1) + (request.authority == nil ? 0 : 1) + request.headers.count
    }

    /// Calls `body` with each recorded header's index, name and value, in order.
    @inline(__always)
    public static func forEach(
        _ request: HTTPRequest, redactions: AuthorizationRedactionMemo?,
        _ body: (_ index: Int, _ name: String, _ value: String) -> Void
    ) {
        body(0, ":method", request.method)
        body(1, ":path", request.path)
        var index = 2
        if let scheme = request.scheme {
            body(index, ":scheme", scheme)
            index += 1
        }
        if let authority = request.authority {
            body(index, ":authority", authority)
            index += 1
        }
        for header in request.headers {
            if header.name == "authorization" {
                let redacted = redactions?.redaction(of: header.value) ?? redactedAuthorization(header.value)
                body(index, "authorization", redacted)
            } else {
                body(index, header.name, header.value)
            }
            index += 1
        }
    }

    /// The recorded headers as an array.
    public static func of(_ request: HTTPRequest, redactions: AuthorizationRedactionMemo? = nil) -> [HeaderField] {
        // One allocation of the final size: growing from the two pseudo-headers reallocated three or four times.
        var headers: [HeaderField] = []
        headers.reserveCapacity(count(request))
        forEach(request, redactions: redactions) { _, name, value in headers.append(HeaderField(name, value)) }
        return headers
    }

    /// `authorization` as the record keeps it: `<scheme> <redacted fingerprint:…>`.
    public static func redactedAuthorization(_ value: String) -> String {
        // The usual "bearer <token>": one scan, one string built; anything else takes the general path below.
        if let space = value.utf8.firstIndex(of: UInt8(ascii: " ")), space != value.utf8.startIndex {
            let tokenStart = value.utf8.index(after: space)
            if tokenStart != value.utf8.endIndex, value.utf8[tokenStart] != UInt8(ascii: " ") {
                let fingerprint = VerifiedToken.fingerprint(of: value[tokenStart...])
                var redacted = String()
                redacted.reserveCapacity(value.utf8.distance(from: value.utf8.startIndex, to: space) + 40)
                redacted += value[..<space]
                redacted += " <redacted fingerprint:"
                redacted += fingerprint
                redacted += ">"
                return redacted
            }
        }
        let parts = value.split(separator: " ", maxSplits: 1)
        let scheme = parts.first.map(String.init) ?? ""
        guard parts.count == 2 else { return value.isEmpty ? "" : "\(scheme) <redacted>" }
        return "\(scheme) <redacted fingerprint:\(VerifiedToken.fingerprint(of: parts[1]))>"
    }
}

/// One connection's last `authorization` value and its redaction: a sender repeats one provider token for many
/// pushes (A-TOKEN), so most records reuse the string instead of hashing the token and building it again.
/// Not thread-safe: used on its connection's thread only.
public final class AuthorizationRedactionMemo {
    private var value: String?
    private var redacted = ""

    public init() {}

    public func redaction(of value: String) -> String {
        if value == self.value { return redacted }
        redacted = RecordedHeaders.redactedAuthorization(value)
        self.value = value
        return redacted
    }
}
