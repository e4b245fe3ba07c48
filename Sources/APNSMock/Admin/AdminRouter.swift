import APNSCore
import APNSJSON
import APNSStore
import Foundation

/// An admin request as the HTTP layer read it.
package struct AdminRequest: Sendable {
    package var method: String
    /// Path and query as sent (`/api/deliveries?token=ab`).
    package var uri: String
    /// The `Authorization` header, if any.
    package var authorization: String?
    package var body: Data

    package init(method: String, uri: String, authorization: String? = nil, body: Data = Data()) {
        self.method = method
        self.uri = uri
        self.authorization = authorization
        self.body = body
    }
}

/// What the HTTP layer does with a request: answer now, or park it until a delivery arrives (long poll).
package enum AdminAction: Sendable {
    case respond(AdminResponse)
    case waitForDelivery(DeliveryFilter, afterID: Int64, timeout: Duration)
}

/// The admin API's routes, from request to action, with no sockets, so tests call it directly. Not pure: it reads
/// the delivery store and calls the backend, which may change the server's state (keys, tokens, scripts, reset).
/// The route table is documented in docs/admin-api.md and docs/openapi.yaml.
package struct AdminRouter: Sendable {
    package let store: any DeliveryStore
    package let backend: any AdminBackend
    package let bearerToken: String?
    package let inspector: InspectorFiles

    /// Longest wait a client may ask for; longer values are clamped.
    package static let maxLongPoll: Duration = .seconds(60)
    package static let defaultLongPoll: Duration = .seconds(30)
    package static let defaultLimit = 100
    package static let maxLimit = 1_000

    package init(store: any DeliveryStore, backend: any AdminBackend, bearerToken: String?, inspector: InspectorFiles) {
        self.store = store
        self.backend = backend
        self.bearerToken = bearerToken
        self.inspector = inspector
    }

    package func route(_ request: AdminRequest) -> AdminAction {
        let (rawPath, rawQuery) = split(request.uri)
        let segments = rawPath.split(separator: "/").map { QueryString.decode($0) }
        let query = QueryString.parse(rawQuery)
        let isAPI = segments.first == "api" || segments == ["metrics"]
        if isAPI, !authorized(request.authorization) {
            var response = AdminResponse.error(401, "missing or wrong bearer token")
            response.extraHeaders.append(.init(name: "WWW-Authenticate", value: "Bearer"))
            return .respond(response)
        }
        do throws(AdminParameterError) {
            return try route(method: request.method, segments: segments, query: query, body: request.body)
        } catch {
            return .respond(.error(400, error.description))
        }
    }

    private func route(method: String, segments: [String], query: [String: String], body: Data)
        throws(AdminParameterError) -> AdminAction
    {
        switch (method, segments) {
        case ("GET", ["api", "health"]): return .respond(health())
        case ("GET", ["api", "deliveries"]): return .respond(try list(query))
        case ("DELETE", ["api", "deliveries"]): return .respond(reset())
        case ("GET", ["api", "deliveries", "wait"]): return try longPoll(query)
        case ("GET", ["api", "deliveries", "export"]): return .respond(try export(query))
        case ("GET", let path) where path.count == 3 && path[0] == "api" && path[1] == "deliveries":
            return .respond(delivery(path[2]))
        case ("POST", ["api", "store", "check"]): return .respond(checkStore())
        case ("GET", ["api", "activities"]):
            let changedSince = try integer(query, "changed_since").map { Int(clamping: $0) }
            return .respond(.json(200, backend.activitiesJSON(
                ActivityListQuery(page: try AdminPage(queryItems: query), changedSince: changedSince))))
        case ("GET", let path) where path.count == 3 && path[0] == "api" && path[1] == "activities":
            guard let json = backend.activityJSON(token: path[2]) else {
                return .respond(.error(404, "no Live Activity for token \(path[2])"))
            }
            return .respond(.json(200, json))
        case ("GET", ["metrics"]):
            return .respond(AdminResponse(
                status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8",
                body: Data(backend.metricsText().utf8)))
        case ("GET", let path) where path.count == 3 && path[0] == "api" && path[1] == "config":
            return .respond(backend.config(section: path[2], page: try AdminPage(queryItems: query)))
        case ("POST", let path) where path.count == 3 && path[0] == "api" && path[1] == "config":
            return .respond(backend.updateConfig(section: path[2], body: body))
        case ("GET", []): return .respond(inspector.response(for: "index.html"))
        case ("GET", let path) where path.count == 1 && path[0] != "api":
            return .respond(inspector.response(for: path[0]))
        default:
            return .respond(knownPath(segments) ? .error(405, "method \(method) not allowed here")
                                                : .error(404, "no such route"))
        }
    }

    private func knownPath(_ segments: [String]) -> Bool {
        ["deliveries", "activities", "config", "health", "store"].contains(segments.dropFirst().first ?? "")
    }

    private func split(_ uri: String) -> (Substring, Substring) {
        guard let mark = uri.firstIndex(of: "?") else { return (Substring(uri), "") }
        return (uri[..<mark], uri[uri.index(after: mark)...])
    }

    /// Constant-time comparison of the bearer token.
    private func authorized(_ header: String?) -> Bool {
        guard let bearerToken else { return true }
        guard let header, header.lowercased().hasPrefix("bearer ") else { return false }
        let offered = Array(header.dropFirst(7).trimmingCharacters(in: .whitespaces).utf8)
        let expected = Array(bearerToken.utf8)
        guard offered.count == expected.count else { return false }
        return zip(offered, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    // MARK: - Handlers

    /// `GET /api/health`: `status` (`ok`, or `degraded` with `storeError` when the store cannot count),
    /// `latestDeliveryId`, `deliveries` and the backend's `server` object.
    struct Health: Encodable {
        var status = "ok"
        var latestDeliveryId: Int64
        var deliveries: Int64?
        var storeError: String?
        /// Why the server cannot take pushes durably right now (the last store failure), or what is wrong with
        /// the store (rows it cannot decode, a read of a damaged file, a failed check); nil when nothing is.
        var degradedReason: String?
        /// The stored deliveries reads leave out because they could not be decoded (the lowest ids, at most 100),
        /// and how many there are; absent when none.
        var undecodableDeliveries: [UndecodableDelivery]?
        var undecodableCount: Int?
        /// What the store found when it opened that lost or ignored something; absent when nothing.
        var storeNotes: [String]?
        var server: JSONValue
    }

    private func health() -> AdminResponse {
        let server = JSONValue.parse(Array(backend.healthJSON())) ?? .object([])
        var health = Health(latestDeliveryId: store.latestID, server: server)
        do {
            health.deliveries = Int64(try store.count())
        } catch {
            health.status = "degraded"
            health.storeError = error.description
        }
        if let reason = backend.degradedReason {
            health.status = "degraded"
            health.degradedReason = reason
        }
        let problems = store.problems
        if problems.undecodableCount > 0 {
            health.undecodableDeliveries = problems.undecodable
            health.undecodableCount = problems.undecodableCount
        }
        if !problems.openNotes.isEmpty { health.storeNotes = problems.openNotes }
        return .json(200, encoding: health)
    }

    /// `POST /api/store/check`: checks the store file and decodes every row (`DeliveryStore.check`); what it finds
    /// is what `/api/health` says from then on.
    private func checkStore() -> AdminResponse {
        do {
            return .json(200, encoding: try store.check())
        } catch {
            return .error(500, error.description)
        }
    }

    private func list(_ query: [String: String]) throws(AdminParameterError) -> AdminResponse {
        let request = try DeliveryQuery(queryItems: query)
        let latestID = store.latestID
        do {
            let page = try store.deliveryPage(request)
            let records = page.records
            var writer = JSONWriter()
            writer.reserve(64 + records.count * 1024)
            writer.beginObject()
            writer.key("deliveries")
            writer.beginArray()
            for record in records {
                writer.element()
                record.write(to: &writer, providerTokenAsObjects: true)
            }
            writer.endArray()
            writer.field("latestId", latestID)
            // The cursor of the next page: the last id listed, as `cursor` (or `before_id` / `after_id`) takes it.
            if records.count == request.limit, let last = records.last {
                writer.field("nextCursor", String(last.id))
            } else {
                writer.key("nextCursor")
                writer.null()
            }
            if !page.undecodable.isEmpty {
                // The rows in the range read that were left out: their ids and why (docs/admin-api.md).
                writer.key("undecodable")
                writer.beginArray()
                for row in page.undecodable {
                    writer.element()
                    writer.beginObject()
                    writer.field("id", row.id)
                    writer.field("error", row.error)
                    writer.endObject()
                }
                writer.endArray()
            }
            writer.endObject()
            return .json(200, Data(writer.bytes))
        } catch {
            return .error(500, error.description)
        }
    }

    private func delivery(_ key: String) -> AdminResponse {
        do {
            guard let record = try store.delivery(matching: key) else {
                return .error(404, "no delivery with id or apns-id \(key)")
            }
            return .json(200, Data(record.jsonBytes(providerTokenAsObjects: true)))
        } catch {
            return .error(500, "\(error)")
        }
    }

    private func reset() -> AdminResponse {
        do {
            return .json(200, encoding: ["deleted": Int64(try store.reset())])
        } catch {
            return .error(500, error.description)
        }
    }

    private func export(_ query: [String: String]) throws(AdminParameterError) -> AdminResponse {
        let filter = try DeliveryFilter(queryItems: query)
        var body = Data()
        let undecodable: [UndecodableDelivery]
        do {
            undecodable = try store.exportJSONLines(filter) { body.append($0) }
        } catch {
            return .error(500, "\(error)")
        }
        var response = AdminResponse(status: 200, contentType: "application/x-ndjson", body: body)
        if !undecodable.isEmpty {
            // The lines stay records only; the rows left out are named in a header (ids, at most 100).
            response.extraHeaders.append(.init(
                name: "X-Undecodable-Deliveries",
                value: undecodable.prefix(StoreProblems.listLimit).map { String($0.id) }.joined(separator: ",")))
        }
        return response
    }

    private func longPoll(_ query: [String: String]) throws(AdminParameterError) -> AdminAction {
        let filter = try DeliveryFilter(queryItems: query)
        let afterID = try integer(query, "after_id") ?? store.latestID
        let millis = try integer(query, "timeout_ms")
        let timeout = millis.map { Duration.milliseconds(max(0, $0)) } ?? Self.defaultLongPoll
        return .waitForDelivery(filter, afterID: afterID, timeout: min(timeout, Self.maxLongPoll))
    }

    /// The answer to a finished long poll: the record, or 204 when the wait timed out.
    package func longPollResponse(_ outcome: Result<DeliveryRecord?, DeliveryStoreError>) -> AdminResponse {
        switch outcome {
        case .success(let record?): return .json(200, Data(record.jsonBytes(providerTokenAsObjects: true)))
        case .success(nil): return AdminResponse(status: 204, contentType: "application/json", body: Data())
        case .failure(let error): return .error(500, error.description)
        }
    }

    private func integer(_ query: [String: String], _ name: String) throws(AdminParameterError) -> Int64? {
        guard let value = query[name].nonEmpty else { return nil }
        guard let number = Int64(value) else { throw AdminParameterError("\(name) must be an integer, got \(value)") }
        return number
    }
}

extension DeliveryQuery {
    /// `limit` (default 100, at most 1000), `after_id`, `before_id`, `order` (`desc` default, `asc`) and the filter.
    package init(queryItems: [String: String]) throws(AdminParameterError) {
        let filter = try DeliveryFilter(queryItems: queryItems)
        func integer(_ name: String) throws(AdminParameterError) -> Int64? {
            guard let value = queryItems[name].nonEmpty else { return nil }
            guard let number = Int64(value) else {
                throw AdminParameterError("\(name) must be an integer, got \(value)")
            }
            return number
        }
        let limit = try AdminPage.limit(queryItems)
        let order: Order
        switch queryItems["order"].nonEmpty {
        case nil, "desc": order = .newestFirst
        case "asc": order = .oldestFirst
        case let other?: throw AdminParameterError("order must be asc or desc, got \(other)")
        }
        // `cursor` (the previous page's `nextCursor`, the last id it listed) continues in the list's order.
        let cursor = try integer("cursor")
        var afterID = try integer("after_id")
        var beforeID = try integer("before_id")
        if let cursor {
            if order == .newestFirst { beforeID = min(beforeID ?? cursor, cursor) } else { afterID = max(afterID ?? cursor, cursor) }
        }
        self.init(filter: filter, afterID: afterID, beforeID: beforeID, limit: limit, order: order)
    }
}

extension AdminPage {
    /// `limit` (default 100, at most 1000; more is clamped) and `cursor` (a previous page's `nextCursor`).
    package init(queryItems: [String: String]) throws(AdminParameterError) {
        let limit = try Self.limit(queryItems)
        var position = 0
        if let cursor = queryItems["cursor"].nonEmpty {
            guard let value = Int(cursor), value >= 0 else {
                throw AdminParameterError("cursor must be a nextCursor from an earlier page, got \(cursor)")
            }
            position = value
        }
        self.init(limit: limit, position: position)
    }

    static func limit(_ queryItems: [String: String]) throws(AdminParameterError) -> Int {
        guard let text = queryItems["limit"].nonEmpty else { return AdminRouter.defaultLimit }
        guard let value = Int64(text) else { throw AdminParameterError("limit must be an integer, got \(text)") }
        guard value >= 0 else { throw AdminParameterError("limit must not be negative, got \(text)") }
        return Int(min(value, Int64(AdminRouter.maxLimit)))
    }
}
