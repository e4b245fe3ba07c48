/// What a broadcast or channel-management request asks for, read from its method and path.
/// Sources: A-CHAN (management paths), A-BSEND (send path).
public enum BroadcastOperation: String, Sendable, Codable, Hashable, CaseIterable {
    /// `POST /1/apps/<bundleId>/channels`
    case createChannel
    /// `GET /1/apps/<bundleId>/channels` with `apns-channel-id`
    case readChannel
    /// `DELETE /1/apps/<bundleId>/channels` with `apns-channel-id`
    case deleteChannel
    /// `GET /1/apps/<bundleId>/all-channels`
    case listChannels
    /// `POST /4/broadcasts/apps/<bundleId>` on the push listener
    case send

    /// The operations the management listener serves.
    public static let management: Set<BroadcastOperation> = [.createChannel, .readChannel, .deleteChannel, .listChannels]
    /// The operations that name one channel in `apns-channel-id`.
    public static let namingChannel: Set<BroadcastOperation> = [.readChannel, .deleteChannel, .send]
}

/// A request's operation and the bundle ID from its path.
public struct BroadcastRoute: Sendable, Hashable {
    public var operation: BroadcastOperation
    public var bundleID: String

    public init(operation: BroadcastOperation, bundleID: String) {
        self.operation = operation
        self.bundleID = bundleID
    }

    /// Reads a management request (`/1/apps/<bundleId>/channels`, `/1/apps/<bundleId>/all-channels`): a path
    /// of another shape is `404 BadPath`, a known path with another method `405 MethodNotAllowed` (A-BERR).
    public static func management(method: String, path: String) -> BroadcastRouting {
        let parts = pathParts(path)
        guard parts.count == 4, parts[0] == "1", parts[1] == "apps", !parts[2].isEmpty,
              parts[3] == "channels" || parts[3] == "all-channels"
        else {
            return .rejected(RuleRejection(
                .badPath, "channel management paths are /1/apps/<bundleId>/channels and /1/apps/<bundleId>/all-channels "
                    + "(the channel id goes in the apns-channel-id header, not the path)"))
        }
        let bundleID = parts[2]
        let operation: BroadcastOperation?
        switch (parts[3], method) {
        case ("channels", "POST"): operation = .createChannel
        case ("channels", "GET"): operation = .readChannel
        case ("channels", "DELETE"): operation = .deleteChannel
        case ("all-channels", "GET"): operation = .listChannels
        default: operation = nil
        }
        guard let operation else {
            let allowed = parts[3] == "channels" ? "POST, GET or DELETE" : "GET"
            return .rejected(RuleRejection(.methodNotAllowed, "\(method) is not allowed on /1/apps/…/\(parts[3]): use \(allowed)"))
        }
        return .route(BroadcastRoute(operation: operation, bundleID: bundleID))
    }

    /// Reads a send (`POST /4/broadcasts/apps/<bundleId>`); nil when the path is not a broadcast path at all (the
    /// device-push rules answer it). The samples in A-BSEND omit the leading slash; a path must have it.
    public static func send(method: String, path: String) -> BroadcastRouting? {
        guard isBroadcastPath(path) else { return nil }
        let parts = pathParts(path)
        guard parts.count == 4, !parts[3].isEmpty else {
            return .rejected(RuleRejection(.badPath, "the broadcast path is /4/broadcasts/apps/<bundleId>"))
        }
        guard method == "POST" else {
            return .rejected(RuleRejection(.methodNotAllowed, "\(method) is not allowed on /4/broadcasts/apps/…: use POST"))
        }
        return .route(BroadcastRoute(operation: .send, bundleID: parts[3]))
    }

    /// Whether the push listener should hand this path to the broadcast rules.
    public static func isBroadcastPath(_ path: String) -> Bool {
        path.hasUTF8Prefix("/4/broadcasts/")
    }

    private static func pathParts(_ path: String) -> [String] {
        let withoutQuery = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var parts = withoutQuery.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.first == "" { parts.removeFirst() }
        return parts
    }
}

/// A request's route, or why its method and path are refused.
public enum BroadcastRouting: Sendable {
    case route(BroadcastRoute)
    case rejected(RuleRejection)
}
