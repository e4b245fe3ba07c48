import Foundation

/// The query-string form of a delivery filter, shared by the admin server (parsing) and the command line client
/// (building), so both sides spell parameters the same way: `token`, `topic`, `push_type`, `status`, `reason`,
/// `accepted`, `since`, `until`, `q`, `device`.
extension DeliveryFilter {
    /// Parses the filter parameters; throws a message naming the bad parameter.
    public init(queryItems: [String: String]) throws(AdminParameterError) {
        self.init()
        token = queryItems["token"].nonEmpty
        topic = queryItems["topic"].nonEmpty
        pushType = queryItems["push_type"].nonEmpty
        reason = queryItems["reason"].nonEmpty
        text = queryItems["q"].nonEmpty
        if let value = queryItems["status"].nonEmpty {
            guard let number = Int(value) else { throw AdminParameterError("status must be an integer, got \(value)") }
            status = number
        }
        if let value = queryItems["accepted"].nonEmpty {
            switch value.lowercased() {
            case "true", "1", "yes": accepted = true
            case "false", "0", "no": accepted = false
            default: throw AdminParameterError("accepted must be true or false, got \(value)")
            }
        }
        if let value = queryItems["device"].nonEmpty {
            guard let handling = DeviceHandling(rawValue: value.lowercased()) else {
                throw AdminParameterError("device must be applied, ignored, dropped or throttled, got \(value)")
            }
            device = handling
        }
        since = try queryItems["since"].nonEmpty.map { value throws(AdminParameterError) in
            try Self.parseTime(value, name: "since")
        }
        until = try queryItems["until"].nonEmpty.map { value throws(AdminParameterError) in
            try Self.parseTime(value, name: "until")
        }
    }

    /// The parameters that reproduce this filter.
    public var queryItems: [(String, String)] {
        var items: [(String, String)] = []
        if let token { items.append(("token", token)) }
        if let topic { items.append(("topic", topic)) }
        if let pushType { items.append(("push_type", pushType)) }
        if let status { items.append(("status", String(status))) }
        if let reason { items.append(("reason", reason)) }
        if let accepted { items.append(("accepted", accepted ? "true" : "false")) }
        if let since { items.append(("since", String(since.millisecondsSinceEpoch))) }
        if let until { items.append(("until", String(until.millisecondsSinceEpoch))) }
        if let text { items.append(("q", text)) }
        if let device { items.append(("device", device.rawValue)) }
        return items
    }

    /// Milliseconds since the epoch, or ISO 8601 (`2026-01-01T10:00:00Z`, fractional seconds allowed).
    public static func parseTime(_ value: String, name: String) throws(AdminParameterError) -> Timestamp {
        if let millis = Int64(value) {
            // Saturate: the value comes from the query string.
            let (nanoseconds, overflow) = millis.multipliedReportingOverflow(by: 1_000_000)
            return Timestamp(nanosecondsSinceEpoch: overflow ? (millis > 0 ? .max : .min) : nanoseconds)
        }
        for style in [Date.ISO8601FormatStyle(), Date.ISO8601FormatStyle(includingFractionalSeconds: true)] {
            if let date = try? style.parse(value) { return Timestamp(secondsSinceEpoch: date.timeIntervalSince1970) }
        }
        throw AdminParameterError("\(name) must be epoch milliseconds or ISO 8601, got \(value)")
    }
}

/// A query parameter the admin API cannot use; answered with 400 and this message.
public struct AdminParameterError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ message: String) { description = message }
}

/// Percent-encoding and decoding of query strings (`application/x-www-form-urlencoded` rules: `+` is a space).
public enum QueryString {
    public static func parse(_ query: Substring) -> [String: String] {
        var items: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(parts[0])
            items[name] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return items
    }

    public static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    public static func encode(_ items: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return items.map { name, value in
            (name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name) + "="
                + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)
        }.joined(separator: "&")
    }
}

extension Optional where Wrapped == String {
    /// nil for a missing or empty parameter.
    public var nonEmpty: String? {
        guard let self, !self.isEmpty else { return nil }
        return self
    }
}
