import HTTP2

extension MockConfiguration {
    /// Refuses values that cannot work, before anything starts: a port outside 0...65535 (0 picks a free one), a
    /// thread count outside 1...1024, and what `LimitSettings.validate` refuses. The message names the flag and the
    /// configuration key, which set the same value.
    package func validate() throws {
        for (name, value) in [
            ("--port / \"port\"", port as Int?), ("--h2c-port / \"h2cPort\"", h2cPort),
            ("--production-port / \"productionPort\"", productionPort), ("--manage-port / \"managePort\"", managePort),
            ("--production-manage-port / \"productionManagePort\"", productionManagePort),
            ("--admin-port / \"admin.port\"", admin.port),
        ] {
            if let value, !(0...65_535).contains(value) {
                throw ConfigurationError.badFlag("\(name) is a port from 0 to 65535 (0 picks a free one), not \(value)")
            }
        }
        if let threads, !(1...1024).contains(threads) {
            throw ConfigurationError.badFlag("--threads / \"threads\" is from 1 to 1024, not \(threads)")
        }
        try limits.validate()
    }

    /// Connection timeouts and request-memory caps (docs/reliability.md). Every key is optional; nil keeps the
    /// default of `TransportSettings`.
    package struct LimitSettings: Codable, Sendable, Equatable {
        /// Seconds to complete the TLS handshake and the HTTP/2 client preface (default 10).
        package var handshakeTimeoutSeconds: Double?
        /// Seconds without any frame on a connection with no open stream before GOAWAY and close (default 7200).
        package var idleTimeoutSeconds: Double?
        /// Seconds for a request to end after its HEADERS before its stream is reset (default 30).
        package var streamTimeoutSeconds: Double?
        /// Request-body bytes buffered per connection (default 8 MiB).
        package var connectionBodyBufferBytes: Int?
        /// Request-body bytes buffered across the server (default 256 MiB).
        package var totalBodyBufferBytes: Int?
        package init() {}

        /// Refuses values that cannot work (zero or negative).
        func validate() throws {
            for (key, value) in [
                ("limits.handshakeTimeoutSeconds", handshakeTimeoutSeconds), ("limits.idleTimeoutSeconds", idleTimeoutSeconds),
                ("limits.streamTimeoutSeconds", streamTimeoutSeconds),
            ] {
                if let value, !(value > 0 && value.isFinite) { throw ConfigurationError.badFlag("\(key) must be a positive number of seconds, got \(value)") }
            }
            for (key, value) in [
                ("limits.connectionBodyBufferBytes", connectionBodyBufferBytes), ("limits.totalBodyBufferBytes", totalBodyBufferBytes),
            ] {
                if let value, value <= 0 { throw ConfigurationError.badFlag("\(key) must be a positive number of bytes, got \(value)") }
            }
        }

        var transportSettings: TransportSettings {
            var settings = TransportSettings()
            if let handshakeTimeoutSeconds { settings.handshakeTimeout = handshakeTimeoutSeconds }
            if let idleTimeoutSeconds { settings.idleTimeout = idleTimeoutSeconds }
            if let streamTimeoutSeconds { settings.incompleteStreamTimeout = streamTimeoutSeconds }
            if let connectionBodyBufferBytes { settings.connectionBodyBufferLimit = connectionBodyBufferBytes }
            if let totalBodyBufferBytes { settings.totalBodyBufferLimit = totalBodyBufferBytes }
            return settings
        }
    }
}
