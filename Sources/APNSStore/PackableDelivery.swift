import APNSCore
import Foundation

/// What `DeliveryPacker` reads of a record to pack it, field by field: a `DeliveryRecord`, or a `DevicePushRecord`
/// read straight from its request and answer. One packer (`DeliveryPacker.packFields`, specialised for each) writes
/// both, so a record packs to the same bytes whichever form it came in.
protocol PackableDelivery {
    var receivedAt: Timestamp { get }
    var connectionID: UInt64 { get }
    var clientAddress: String { get }
    var environment: APNsEnvironment? { get }
    var tls: TLSInfo? { get }
    /// Whether `tls` is non-nil, holds no client certificate and has the same ALPN, version, cipher and server name
    /// as `facts` (which holds none either): `tls == facts`, read in place without copying the facts out. May say
    /// false when unsure (the packer then compares `tls` itself).
    func hasTLS(equalTo facts: TLSInfo) -> Bool
    var injected: InjectedFault? { get }
    var clientCertificate: ClientCertificateSummary? { get }
    var method: String { get }
    var path: String { get }
    var deviceToken: String? { get }
    /// How many headers `forEachHeader` hands out.
    var headerCount: Int { get }
    /// Calls `body` with each recorded header's index, name and value, in order.
    func forEachHeader(_ body: (_ index: Int, _ name: String, _ value: String) -> Void)
    var providerToken: ProviderTokenSummary? { get }
    var payload: [UInt8] { get }
    var status: Int { get }
    var reason: String? { get }
    var apnsID: String { get }
    var apnsUniqueID: String? { get }
    /// `apnsID`'s and `apnsUniqueID`'s bits when known without reading the text (`CanonicalUUID.parse` of it).
    var apnsIDBits: CanonicalUUID.Bits? { get }
    var apnsUniqueIDBits: CanonicalUUID.Bits? { get }
    var warnings: [PushWarning] { get }
    var explanation: String? { get }
    var ruleID: String? { get }
    var strict: Bool { get }
    var pushType: String? { get }
    var topic: String? { get }
    var liveActivity: LiveActivityOutcome? { get }
    var latencyMicroseconds: Int64 { get }
    /// The record as a value, with the id the store assigned (kept so when it cannot be packed).
    func wholeRecord(id: Int64) -> DeliveryRecord
}

extension DeliveryRecord: PackableDelivery {
    var headerCount: Int { headers.count }
    var apnsIDBits: CanonicalUUID.Bits? { nil }
    var apnsUniqueIDBits: CanonicalUUID.Bits? { nil }

    @inline(__always)
    func forEachHeader(_ body: (_ index: Int, _ name: String, _ value: String) -> Void) {
        for (index, header) in headers.enumerated() { body(index, header.name, header.value) }
    }

    func wholeRecord(id: Int64) -> DeliveryRecord { withID(id) }

    func hasTLS(equalTo facts: TLSInfo) -> Bool {
        guard let tls, tls.clientCertificate == nil else { return false }
        return tls.hasSameFacts(as: facts)
    }
}

extension TLSInfo {
    /// The same ALPN, version, cipher and server name (the client certificate is not compared). Strings shared with
    /// the other's (one connection's facts) compare equal at once.
    @inline(__always)
    func hasSameFacts(as other: TLSInfo) -> Bool {
        version == other.version && cipher == other.cipher && alpn == other.alpn && serverName == other.serverName
    }
}

extension DevicePushRecord: PackableDelivery {
    var receivedAt: Timestamp { request.receivedAt }
    var connectionID: UInt64 { request.connection.id }
    var clientAddress: String { request.connection.remoteAddress }
    var method: String { request.method }
    var path: String { request.path }
    var payload: [UInt8] { request.body }
    var headerCount: Int { RecordedHeaders.count(request) }
    var environment: APNsEnvironment? { answer.environment }
    var deviceToken: String? { answer.deviceToken }
    var providerToken: ProviderTokenSummary? { answer.providerToken }
    var status: Int { answer.status }
    var reason: String? { answer.reason }
    var apnsID: String { answer.apnsID }
    var apnsUniqueID: String? { answer.apnsUniqueID }
    var apnsIDBits: CanonicalUUID.Bits? { answer.apnsIDBits }
    var apnsUniqueIDBits: CanonicalUUID.Bits? { answer.apnsUniqueIDBits }
    var warnings: [PushWarning] { answer.warnings }
    var explanation: String? { answer.explanation }
    var ruleID: String? { answer.ruleID }
    var strict: Bool { answer.strict }
    var pushType: String? { answer.pushType }
    var topic: String? { answer.topic }
    var liveActivity: LiveActivityOutcome? { answer.liveActivity }
    var latencyMicroseconds: Int64 { answer.latencyMicroseconds }
    var injected: InjectedFault? { answer.injected }

    /// The connection's facts as `tls` gives them (client certificate left out), compared where they are.
    func hasTLS(equalTo facts: TLSInfo) -> Bool {
        request.connection.tls?.hasSameFacts(as: facts) ?? false
    }

    @inline(__always)
    func forEachHeader(_ body: (_ index: Int, _ name: String, _ value: String) -> Void) {
        RecordedHeaders.forEach(request, redactions: answer.redactions, body)
    }

    func wholeRecord(id: Int64) -> DeliveryRecord {
        DeliveryRecord(
            id: id, receivedAt: receivedAt, connectionID: connectionID, clientAddress: clientAddress,
            environment: environment, tls: tls, method: method, path: path, deviceToken: deviceToken,
            headers: RecordedHeaders.of(request, redactions: answer.redactions), providerToken: providerToken,
            payload: payload, status: status, reason: reason, apnsID: apnsID, apnsUniqueID: apnsUniqueID,
            warnings: warnings, explanation: explanation, ruleID: ruleID, strict: strict, pushType: pushType,
            topic: topic, liveActivity: liveActivity, latencyMicroseconds: latencyMicroseconds, injected: injected,
            clientCertificate: clientCertificate)
    }
}
