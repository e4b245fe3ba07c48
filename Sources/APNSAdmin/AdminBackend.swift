import Foundation

/// What the admin API needs from the running server beyond the delivery store. The server's pipeline implements
/// it; the admin server calls it on its event-loop thread, so each method must be quick and thread-safe.
public protocol AdminBackend: Sendable {
    /// A JSON object about the server (listeners, uptime, configuration summary); `/api/health` nests it under
    /// `"server"`.
    func healthJSON() -> Data
    /// `GET /api/activities`: a JSON object, by convention `{"activities": [{"token", "attributesType", "state",
    /// "updatedAt", ...}]}` (see docs/admin-api.md).
    func activitiesJSON() -> Data
    /// `GET /api/activities/{token}`: a JSON object with `attributes`, `contentState` and `timeline`, or nil when
    /// the token has no activity (404).
    func activityJSON(token: String) -> Data?
    /// `GET /metrics`: Prometheus text exposition format (`Metrics.prometheusText()` plus anything else).
    func metricsText() -> String
    /// `GET /api/config/{section}`: the current settings of a section (`tokens`, `keys`, `faults`, ...).
    func config(section: String) -> AdminResponse
    /// `POST /api/config/{section}`: apply a change given as JSON; answer with a status and JSON.
    func updateConfig(section: String, body: Data) -> AdminResponse
    /// Why the server cannot do its job right now (for example, the delivery store fails), or nil: `/api/health`
    /// then says `degraded` with this reason. Default: nil.
    var degradedReason: String? { get }
}

extension AdminBackend {
    public var degradedReason: String? { nil }
}

/// An HTTP answer of the admin API.
public struct AdminResponse: Sendable, Equatable {
    public var status: Int
    public var contentType: String
    public var body: Data
    var extraHeaders: [Header] = []

    struct Header: Sendable, Equatable {
        var name: String
        var value: String
    }

    public init(status: Int, contentType: String, body: Data) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    /// A JSON answer.
    public static func json(_ status: Int, _ body: Data) -> AdminResponse {
        AdminResponse(status: status, contentType: "application/json", body: body)
    }

    /// `{"error": message}` with `status`.
    public static func error(_ status: Int, _ message: String) -> AdminResponse {
        var writer = JSONObjectWriter()
        writer.string("error", message)
        return json(status, writer.data)
    }
}

/// A one-level JSON object built with JSONSerialization-safe escaping (via `JSONEncoder` on strings).
struct JSONObjectWriter {
    private var members: [String] = []

    mutating func string(_ key: String, _ value: String) { members.append(Self.quote(key) + ":" + Self.quote(value)) }
    /// Replaces the member `key` written earlier (keeps its position), or appends it.
    mutating func replaceString(_ key: String, _ value: String) {
        let prefix = Self.quote(key) + ":"
        let member = prefix + Self.quote(value)
        if let index = members.firstIndex(where: { $0.hasPrefix(prefix) }) { members[index] = member } else { members.append(member) }
    }
    mutating func integer(_ key: String, _ value: Int64) { members.append(Self.quote(key) + ":" + String(value)) }
    mutating func raw(_ key: String, _ json: Data) {
        members.append(Self.quote(key) + ":" + String(decoding: json, as: UTF8.self))
    }

    var data: Data { Data(("{" + members.joined(separator: ",") + "}").utf8) }

    static func quote(_ text: String) -> String {
        let encoded = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: encoded, as: UTF8.self)
    }
}
