import APNSCore
import Foundation

/// A device push's delivery record before it is built: the request as received and what the pipeline answered.
/// The in-memory store packs it straight into its packed bytes (`InMemoryDeliveryStore.appendNow(_:)`), without
/// building the `DeliveryRecord` and its array of recorded headers first; `record` is the same record as a value
/// (for the SQLite store, and for a record the in-memory store keeps whole). Both read the fields through
/// `PackableDelivery`, so the two forms cannot disagree.
package struct DevicePushRecord {
    /// The request as received; the record keeps its receive time, connection, method, path, headers (pseudo-headers
    /// first, `authorization` reduced) and body.
    package var request: HTTPRequest
    /// What the pipeline answered.
    package var answer: DevicePushAnswer

    package init(request: HTTPRequest, answer: DevicePushAnswer) {
        self.request = request
        self.answer = answer
    }

    /// The delivery record of the push.
    package var record: DeliveryRecord { wholeRecord(id: 0) }
}

/// What the pipeline answered a device push, as its record keeps it (apart from the request's own facts). A value
/// of its own, beside the request: one initialiser storing the request and all of these copied the whole value once
/// more and destroyed it.
package struct DevicePushAnswer {
    package var environment: APNsEnvironment?
    package var deviceToken: String?
    package var providerToken: ProviderTokenSummary?
    package var status: Int
    package var reason: String?
    package var apnsID: String
    package var apnsUniqueID: String?
    package var warnings: [PushWarning]
    package var explanation: String?
    package var ruleID: String?
    package var strict: Bool
    package var pushType: String?
    package var topic: String?
    package var liveActivity: LiveActivityOutcome?
    package var latencyMicroseconds: Int64
    package var injected: InjectedFault?
    /// The connection's memo of its last redacted `authorization` value (nil: redact afresh).
    package var redactions: AuthorizationRedactionMemo?
    /// The bits of `apnsID` and `apnsUniqueID` when the pipeline generated them (nil: read from the text).
    package var apnsIDBits: CanonicalUUID.Bits?
    package var apnsUniqueIDBits: CanonicalUUID.Bits?
}

extension DevicePushAnswer {
    /// The answer (an initialiser of its own, storing each field into `self`, copied the whole value once more and
    /// destroyed it; the memberwise one builds it in place).
    package static func of(
        environment: APNsEnvironment?, deviceToken: String?, providerToken: ProviderTokenSummary?, status: Int,
        reason: String?, apnsID: String, apnsUniqueID: String?, warnings: [PushWarning], explanation: String?,
        ruleID: String?, strict: Bool, pushType: String?, topic: String?, liveActivity: LiveActivityOutcome?,
        latencyMicroseconds: Int64, injected: InjectedFault?, redactions: AuthorizationRedactionMemo?,
        apnsIDBits: CanonicalUUID.Bits? = nil, apnsUniqueIDBits: CanonicalUUID.Bits? = nil
    ) -> DevicePushAnswer {
        DevicePushAnswer(
            environment: environment, deviceToken: deviceToken, providerToken: providerToken, status: status,
            reason: reason, apnsID: apnsID, apnsUniqueID: apnsUniqueID, warnings: warnings, explanation: explanation,
            ruleID: ruleID, strict: strict, pushType: pushType, topic: topic, liveActivity: liveActivity,
            latencyMicroseconds: latencyMicroseconds, injected: injected, redactions: redactions,
            apnsIDBits: apnsIDBits, apnsUniqueIDBits: apnsUniqueIDBits)
    }
}

/// A client certificate is kept once, summarised (`clientCertificate`), so the record's TLS facts leave it out;
/// most connections present none, and then the TLS facts are kept as they are.
extension DevicePushRecord {
    @inline(__always)
    var tls: TLSInfo? {
        guard var tls = request.connection.tls else { return nil }
        if tls.clientCertificate != nil { tls.clientCertificate = nil }
        return tls
    }

    var clientCertificate: ClientCertificateSummary? {
        request.connection.tls?.clientCertificate.map(ClientCertificateSummary.init)
    }
}

/// The headers a delivery record keeps of a request: pseudo-headers first, then every header in arrival order; the
/// `authorization` value is never stored whole: it is reduced to its scheme and a fingerprint (the decoded JWT is
/// kept in `providerToken`).
package enum RecordedHeaders {
    /// How many headers `forEach` hands out.
    static func count(_ request: HTTPRequest) -> Int {
        2 + (request.scheme == nil ? 0 : 1) + (request.authority == nil ? 0 : 1) + request.headers.count
    }

    /// Calls `body` with each recorded header's index, name and value, in order.
    @inline(__always)
    static func forEach(
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
    package static func of(_ request: HTTPRequest, redactions: AuthorizationRedactionMemo? = nil) -> [HeaderField] {
        // One allocation of the final size: growing from the two pseudo-headers reallocated three or four times.
        var headers: [HeaderField] = []
        headers.reserveCapacity(count(request))
        forEach(request, redactions: redactions) { _, name, value in headers.append(HeaderField(name, value)) }
        return headers
    }

    /// `authorization` as the record keeps it: `<scheme> <redacted fingerprint:…>`.
    package static func redactedAuthorization(_ value: String) -> String {
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
package final class AuthorizationRedactionMemo {
    private var value: String?
    private var redacted = ""

    package init() {}

    package func redaction(of value: String) -> String {
        if value == self.value { return redacted }
        redacted = RecordedHeaders.redactedAuthorization(value)
        self.value = value
        return redacted
    }
}
