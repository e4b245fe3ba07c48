/// Something APNs accepts but that is likely a mistake, or that the device will treat differently from what the
/// sender expects. Warnings never change APNs' answer; they go into the delivery record, the admin API and logs.
/// Strict mode (opt-in) may turn chosen warnings into rejections labelled as the mock's own.
package struct PushWarning: Sendable, Hashable, Codable {
    /// Stable identifier, e.g. `background-priority-10`, `la-timestamp-milliseconds`. Used by strict mode and tests.
    package var code: String
    /// A sentence a person can act on.
    package var message: String

    package init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

/// The JSON body of an APNs error response: `{"reason": "..."}` plus `timestamp` (integer milliseconds since the
/// epoch) only on 410. Source: A-RESP (error body keys), A-RESP.
package struct ErrorBody: Codable, Sendable, Equatable {
    package var reason: String
    package var timestamp: Int64?

    package init(reason: String, timestamp: Int64? = nil) {
        self.reason = reason
        self.timestamp = timestamp
    }
}
