import APNSCore
import Foundation

/// The JSON form used by the admin API, JSON Lines export and the SQLite store: camelCase keys, `receivedAt` as
/// nanoseconds plus a readable ISO 8601 copy, the payload as text when it is UTF-8 (else base64), and
/// `accepted` spelled out for clients that filter on it.
extension DeliveryRecord {
    enum CodingKeys: String, CodingKey {
        case id, receivedAt, receivedAtNanos, connectionId, clientAddress, environment, tls, method, path
        case deviceToken, headers, providerToken, payload, payloadBase64, status, reason, accepted
        case apnsId, apnsUniqueId, warnings, explanation, ruleId, strict, pushType, topic, liveActivity
        case latencyMicroseconds, injected
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let payload: [UInt8]
        if let base64 = try c.decodeIfPresent(String.self, forKey: .payloadBase64) {
            guard let data = Data(base64Encoded: base64) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .payloadBase64, in: c, debugDescription: "payloadBase64 is not base64")
            }
            payload = [UInt8](data)
        } else {
            payload = Array((try c.decodeIfPresent(String.self, forKey: .payload) ?? "").utf8)
        }
        self.init(
            id: try c.decodeIfPresent(Int64.self, forKey: .id) ?? 0,
            receivedAt: Timestamp(nanosecondsSinceEpoch: try c.decode(Int64.self, forKey: .receivedAtNanos)),
            connectionID: try c.decode(UInt64.self, forKey: .connectionId),
            clientAddress: try c.decode(String.self, forKey: .clientAddress),
            environment: try c.decodeIfPresent(APNsEnvironment.self, forKey: .environment),
            tls: try c.decodeIfPresent(TLSInfo.self, forKey: .tls),
            method: try c.decode(String.self, forKey: .method),
            path: try c.decode(String.self, forKey: .path),
            deviceToken: try c.decodeIfPresent(String.self, forKey: .deviceToken),
            headers: try c.decode([HeaderField].self, forKey: .headers),
            providerToken: try c.decodeIfPresent(ProviderTokenSummary.self, forKey: .providerToken),
            payload: payload,
            status: try c.decodeIfPresent(Int.self, forKey: .status) ?? 0,
            reason: try c.decodeIfPresent(String.self, forKey: .reason),
            apnsID: try c.decode(String.self, forKey: .apnsId),
            apnsUniqueID: try c.decodeIfPresent(String.self, forKey: .apnsUniqueId),
            warnings: try c.decodeIfPresent([PushWarning].self, forKey: .warnings) ?? [],
            explanation: try c.decodeIfPresent(String.self, forKey: .explanation),
            ruleID: try c.decodeIfPresent(String.self, forKey: .ruleId),
            strict: try c.decodeIfPresent(Bool.self, forKey: .strict) ?? false,
            pushType: try c.decodeIfPresent(String.self, forKey: .pushType),
            topic: try c.decodeIfPresent(String.self, forKey: .topic),
            liveActivity: try c.decodeIfPresent(LiveActivityOutcome.self, forKey: .liveActivity),
            latencyMicroseconds: try c.decode(Int64.self, forKey: .latencyMicroseconds),
            injected: try c.decodeIfPresent(InjectedFault.self, forKey: .injected))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(Self.iso8601(receivedAt), forKey: .receivedAt)
        try c.encode(receivedAt.nanosecondsSinceEpoch, forKey: .receivedAtNanos)
        try c.encode(connectionID, forKey: .connectionId)
        try c.encode(clientAddress, forKey: .clientAddress)
        try c.encodeIfPresent(environment, forKey: .environment)
        try c.encodeIfPresent(tls, forKey: .tls)
        try c.encode(method, forKey: .method)
        try c.encode(path, forKey: .path)
        try c.encodeIfPresent(deviceToken, forKey: .deviceToken)
        try c.encode(headers, forKey: .headers)
        try c.encodeIfPresent(providerToken, forKey: .providerToken)
        if let text = payloadText {
            try c.encode(text, forKey: .payload)
        } else {
            try c.encode(Data(payload).base64EncodedString(), forKey: .payloadBase64)
        }
        if status == 0 { try c.encodeNil(forKey: .status) } else { try c.encode(status, forKey: .status) }
        try c.encodeIfPresent(reason, forKey: .reason)
        try c.encode(accepted, forKey: .accepted)
        try c.encode(apnsID, forKey: .apnsId)
        try c.encodeIfPresent(apnsUniqueID, forKey: .apnsUniqueId)
        try c.encode(warnings, forKey: .warnings)
        try c.encodeIfPresent(explanation, forKey: .explanation)
        try c.encodeIfPresent(ruleID, forKey: .ruleId)
        try c.encode(strict, forKey: .strict)
        try c.encodeIfPresent(pushType, forKey: .pushType)
        try c.encodeIfPresent(topic, forKey: .topic)
        try c.encodeIfPresent(liveActivity, forKey: .liveActivity)
        try c.encode(latencyMicroseconds, forKey: .latencyMicroseconds)
        try c.encodeIfPresent(injected, forKey: .injected)
    }

    /// `2026-01-01T00:00:00.123Z` (UTC, milliseconds, truncated like `millisecondsSinceEpoch`). Computed by hand
    /// (`CivilDate`) because date formatters cost more than the rest of a record's encoding.
    public static func iso8601(_ time: Timestamp) -> String {
        let millis = time.millisecondsSinceEpoch
        let days = millis >= 0 ? millis / 86_400_000 : (millis - 86_399_999) / 86_400_000
        let msOfDay = millis - days * 86_400_000
        let (year, month, day) = CivilDate.from(daysSinceUnixEpoch: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(msOfDay / 3_600_000, 2) + ":"
            + pad(msOfDay / 60_000 % 60, 2) + ":" + pad(msOfDay / 1000 % 60, 2) + "." + pad(msOfDay % 1000, 3) + "Z"
    }

    /// Lower-cased text that free-text search (`q`) matches as a substring: ids, token, topic, push type, reason,
    /// rule, explanation, warnings, Live Activity outcome, header values and the payload text.
    var searchText: String {
        var parts: [String] = [apnsID, path, clientAddress]
        parts.append(contentsOf: [deviceToken, topic, pushType, reason, ruleID, explanation, apnsUniqueID, injected?.effect]
            .compactMap { $0 })
        for warning in warnings { parts.append(warning.code); parts.append(warning.message) }
        if let outcome = liveActivity { parts.append(outcome.code); parts.append(outcome.explanation) }
        for header in headers { parts.append(header.name + ": " + header.value) }
        if let text = payloadText { parts.append(text) }
        return parts.joined(separator: "\n").lowercased()
    }
}

/// One shared encoder/decoder configuration for records, so every reader and writer agrees on the form.
enum DeliveryJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    static func decoder() -> JSONDecoder { JSONDecoder() }
}
