/// Something APNs accepts but that is likely a mistake, or that the device will treat differently from what the
/// sender expects. Warnings never change APNs' answer; they go into the delivery record, the admin API and logs.
/// Strict mode (opt-in) may turn chosen warnings into rejections labelled as the mock's own.
public struct PushWarning: Sendable, Hashable, Codable {
    /// Stable identifier, e.g. `background-priority-10`, `la-timestamp-milliseconds`. Used by strict mode and tests.
    public var code: String
    /// A sentence a person can act on.
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

/// The JSON body of an APNs error response: `{"reason": "..."}` plus `timestamp` (integer milliseconds since the
/// epoch) only on 410. Source: A-RESP (error body keys), A-RESP.
public struct ErrorBody: Codable, Sendable, Equatable {
    public var reason: String
    public var timestamp: Int64?

    public init(reason: String, timestamp: Int64? = nil) {
        self.reason = reason
        self.timestamp = timestamp
    }
}
