import APNSJSON
import Foundation

/// One case of `Conformance/cases/device-push.json` (format: Conformance/README.md), as `apns-mock conformance
/// server` replays it against any endpoint.
package struct ServerCase: Sendable, Decodable {
    package struct Request: Sendable, Decodable {
        package var method: String?
        package var path: String
        /// `[name, value]` pairs, in order, repeats kept.
        package var headers: [[String]]
        package var body: String?
        package var bodyBase64: String?
        package var bodySize: Int?

        /// The body bytes: text, base64, or `{"aps":{},"p":"aaa…a"}` padded to exactly `bodySize` bytes.
        package var bodyBytes: [UInt8] {
            if let bodyBase64 { return Array(Data(base64Encoded: bodyBase64) ?? Data()) }
            if let bodySize {
                let prefix = Array(#"{"aps":{},"p":""#.utf8)
                return prefix + Array(repeating: UInt8(ascii: "a"), count: max(0, bodySize - prefix.count - 2)) + Array(#""}"#.utf8)
            }
            return Array((body ?? "").utf8)
        }

        package var headerPairs: [(name: String, value: String)] {
            headers.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
        }
    }

    package struct Expect: Sendable, Decodable {
        package var status: Int
        package var reason: String?
        package var warnings: [String]?
        package var timestamp: Int64?
        package var strict: Bool?
    }

    package var id: String
    package var title: String
    package var source: String?
    package var request: Request
    /// Pushes the case sends first, on the same connection (e.g. to give a Live Activity an earlier update).
    package var before: [Request]?
    package var environment: String?
    package var auth: String?
    package var registry: String?
    package var configuration: JSONObject?
    /// Broadcast cases (`cases/broadcast.json`): `channels` when channels must be created first.
    package var setup: String?
    /// Broadcast cases: `manage` when the case goes to the channel-management listener.
    package var listener: String?
    package var expect: Expect

    /// Loads the case table (`{"cases": [...]}`).
    package static func loadTable(_ data: Data) throws -> [ServerCase] {
        struct Table: Decodable { var cases: [ServerCase] }
        return try JSONDecoding.decode(Table.self, from: data).cases
    }
}

/// How the runner authenticates a case, or why it cannot replay it against a peer it cannot configure.
package enum ServerCasePlan: Sendable, Equatable {
    package enum Authorization: Sendable, Equatable {
        /// A valid provider token for the runner's key.
        case valid
        /// No `authorization` header (MissingProviderToken).
        case none
        /// A token whose signature does not verify (InvalidProviderToken).
        case badSignature
        /// A token issued two hours ago (ExpiredProviderToken).
        case expired
        /// A first push binds the connection with one token, the case's push brings a new one at once
        /// (TooManyProviderTokenUpdates).
        case secondTokenTooSoon
    }

    case send(Authorization, production: Bool)
    case skip(String)

    /// Cases that need server-side set-up a peer cannot be given (declared tokens, rule switches, a server
    /// without token authentication, other teams' keys) are skipped with the reason.
    /// Broadcast cases (`setup`, `listener`) need the peer's channel-management endpoint (`hasManageURL`).
    package static func plan(_ item: ServerCase, hasProductionURL: Bool, hasManageURL: Bool = false) -> ServerCasePlan {
        if BroadcastCaseGrader.isBroadcastCase(item), !hasManageURL {
            return .skip("needs the channel-management endpoint to set up channels (give --manage-url)")
        }
        if item.registry == "declared" {
            return .skip("needs the case table's declared device tokens on the server (registry)")
        }
        if let configuration = item.configuration, !configuration.isEmpty {
            return .skip("needs a server configured with \(configuration.text)")
        }
        if let before = item.before, !before.isEmpty {
            return .skip("needs \(before.count) earlier push(es) on the same connection first (before)")
        }
        let production = item.environment == "production"
        if production, !hasProductionURL { return .skip("needs the production environment (give --production-url)") }
        let mdm = item.request.headerPairs.contains { $0.name == "apns-push-type" && $0.value == "mdm" }
        if item.auth == "none" || mdm {
            return .skip("needs a server without token authentication (certificate-style)")
        }
        if let auth = item.auth, auth.hasPrefix("certificate:") {
            return .skip("needs a client certificate issued by the server's CA (\(auth))")
        }
        switch item.auth ?? "valid" {
        case "valid": return .send(.valid, production: production)
        case "rejected:MissingProviderToken": return .send(.none, production: production)
        case "rejected:InvalidProviderToken": return .send(.badSignature, production: production)
        case "rejected:ExpiredProviderToken": return .send(.expired, production: production)
        case "rejected:TooManyProviderTokenUpdates": return .send(.secondTokenTooSoon, production: production)
        case let other:
            return .skip("needs keys or teams the server must be told about (\(other.replacingOccurrences(of: "rejected:", with: "")))")
        }
    }
}
