import APNSJSON
import Foundation

/// One case of `Conformance/cases/device-push.json` (format: Conformance/README.md), as `apns-mock conformance
/// server` replays it against any endpoint.
public struct ServerCase: Sendable, Decodable {
    public struct Request: Sendable, Decodable {
        public var method: String?
        public var path: String
        /// `[name, value]` pairs, in order, repeats kept.
        public var headers: [[String]]
        public var body: String?
        public var bodyBase64: String?
        public var bodySize: Int?

        /// The body bytes: text, base64, or `{"aps":{},"p":"aaa…a"}` padded to exactly `bodySize` bytes.
        public var bodyBytes: [UInt8] {
            if let bodyBase64 { return Array(Data(base64Encoded: bodyBase64) ?? Data()) }
            if let bodySize {
                let prefix = Array(#"{"aps":{},"p":""#.utf8)
                return prefix + Array(repeating: UInt8(ascii: "a"), count: max(0, bodySize - prefix.count - 2)) + Array(#""}"#.utf8)
            }
            return Array((body ?? "").utf8)
        }

        public var headerPairs: [(name: String, value: String)] {
            headers.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
        }
    }

    public struct Expect: Sendable, Decodable {
        public var status: Int
        public var reason: String?
        public var warnings: [String]?
        public var timestamp: Int64?
        public var strict: Bool?
    }

    public var id: String
    public var title: String
    public var source: String?
    public var request: Request
    /// Pushes the case sends first, on the same connection (e.g. to give a Live Activity an earlier update).
    public var before: [Request]?
    public var environment: String?
    public var auth: String?
    public var registry: String?
    public var configuration: JSONObject?
    /// Broadcast cases (`cases/broadcast.json`): `channels` when channels must be created first.
    public var setup: String?
    /// Broadcast cases: `manage` when the case goes to the channel-management listener.
    public var listener: String?
    public var expect: Expect

    /// Loads the case table (`{"cases": [...]}`).
    public static func loadTable(_ data: Data) throws -> [ServerCase] {
        struct Table: Decodable { var cases: [ServerCase] }
        return try JSONDecoding.decode(Table.self, from: data).cases
    }
}

/// How the runner authenticates a case, or why it cannot replay it against a peer it cannot configure.
public enum ServerCasePlan: Sendable, Equatable {
    public enum Authorization: Sendable, Equatable {
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
    public static func plan(_ item: ServerCase, hasProductionURL: Bool, hasManageURL: Bool = false) -> ServerCasePlan {
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
