import Foundation

/// What the admin API needs from the running server beyond the delivery store. The server's pipeline implements
/// it; the admin server calls it on its event-loop thread, so each method must be quick and thread-safe.
package protocol AdminBackend: Sendable {
    /// A JSON object about the server (listeners, uptime, configuration summary); `/api/health` nests it under
    /// `"server"`.
    func healthJSON() -> Data
    /// `GET /api/activities`: a JSON object, by convention `{"activities": [{"token", "attributesType", "state",
    /// "updatedAt", ...}], "nextCursor", "total", "changeSequence"}`: one page, or what changed (see
    /// docs/admin-api.md). Called on the admin thread: hold no lock a push needs while serializing.
    func activitiesJSON(_ query: ActivityListQuery) -> Data
    /// `GET /api/activities/{token}`: a JSON object with `attributes`, `contentState` and `timeline`, or nil when
    /// the token has no activity (404).
    func activityJSON(token: String) -> Data?
    /// `GET /metrics`: Prometheus text exposition format (`Metrics.prometheusText()` plus anything else).
    func metricsText() -> String
    /// `GET /api/config/{section}`: the current settings of a section (`tokens`, `keys`, `faults`, ...).
    func config(section: String) -> AdminResponse
    /// `GET /api/config/{section}` of a section that lists things (`channels`): one page. Default: the whole
    /// section (`config(section:)`).
    func config(section: String, page: AdminPage) -> AdminResponse
    /// `POST /api/config/{section}`: apply a change given as JSON; answer with a status and JSON.
    func updateConfig(section: String, body: Data) -> AdminResponse
    /// Why the server cannot do its job right now (for example, the delivery store fails), or nil: `/api/health`
    /// then says `degraded` with this reason. Default: nil.
    var degradedReason: String? { get }
}

extension AdminBackend {
    package var degradedReason: String? { nil }
    package func config(section: String, page: AdminPage) -> AdminResponse { config(section: section) }
}

/// Where a paged admin read starts and how much it returns: `limit` (default `AdminRouter.defaultLimit`, at most
/// `AdminRouter.maxLimit`) and `cursor`, the `nextCursor` of the page before (absent: the first page).
package struct AdminPage: Sendable, Equatable {
    package var limit: Int
    /// The position to start from, as the previous page's `nextCursor` said; 0 for the first page.
    package var position: Int

    package init(limit: Int = AdminRouter.defaultLimit, position: Int = 0) {
        self.limit = limit
        self.position = position
    }
}

/// `GET /api/activities`: a page, or (with `changed_since`) the activities pushes changed since a change sequence.
package struct ActivityListQuery: Sendable, Equatable {
    package var page: AdminPage
    package var changedSince: Int?

    package init(page: AdminPage = AdminPage(), changedSince: Int? = nil) {
        self.page = page
        self.changedSince = changedSince
    }
}

/// An HTTP answer of the admin API.
package struct AdminResponse: Sendable, Equatable {
    package var status: Int
    package var contentType: String
    package var body: Data
    var extraHeaders: [Header] = []

    struct Header: Sendable, Equatable {
        var name: String
        var value: String
    }

    package init(status: Int, contentType: String, body: Data) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    /// A JSON answer.
    package static func json(_ status: Int, _ body: Data) -> AdminResponse {
        AdminResponse(status: status, contentType: "application/json", body: body)
    }

    /// `value` as JSON (`AdminJSON.encode`) with `status`.
    package static func json(_ status: Int, encoding value: some Encodable) -> AdminResponse {
        json(status, AdminJSON.encode(value))
    }

    /// `{"error": message}` with `status`.
    package static func error(_ status: Int, _ message: String) -> AdminResponse {
        json(status, encoding: AdminErrorBody(error: message))
    }
}

/// The admin API's error body.
struct AdminErrorBody: Encodable {
    var error: String
}

/// The one way the admin API writes JSON bodies other than delivery records (which `JSONWriter` writes): Codable
/// response types through `JSONEncoder`, keys sorted so answers are stable, slashes left unescaped.
package enum AdminJSON {
    package static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data("null".utf8)
    }
}
