/// Judges broadcast sends and channel-management requests and carries out the management operations on the
/// channel registry. Pure apart from the registry and the authenticator it is given; time is an input.
///
/// Runs `BroadcastRule.order` (only the rules for the request's operation) until one rejects; then creates,
/// reads, deletes or lists. A send's fan-out to the simulated device is the caller's (it needs the device).
public struct BroadcastDecider: Sendable {
    public let settings: BroadcastSettings
    public let channels: ChannelRegistry
    public let rules: [BroadcastRule]

    public init(settings: BroadcastSettings, channels: ChannelRegistry, rules: [BroadcastRule] = BroadcastRule.order) {
        self.settings = settings
        self.channels = channels
        self.rules = rules
    }

    /// A request on the management listener.
    public func manage(
        _ request: HTTPRequest, environment: APNsEnvironment, authenticator: (any ConnectionAuthenticator)?, now: Timestamp
    ) -> BroadcastAnswer {
        switch BroadcastRoute.management(method: request.method, path: request.path) {
        case .rejected(let rejection):
            return routeRejection(rejection, request: request, environment: environment)
        case .route(let route):
            return decide(request, route: route, environment: environment, authenticator: authenticator, now: now)
        }
    }

    /// A request on a push listener whose path starts `/4/broadcasts/`; nil for any other path.
    public func send(
        _ request: HTTPRequest, environment: APNsEnvironment, authenticator: (any ConnectionAuthenticator)?, now: Timestamp
    ) -> BroadcastAnswer? {
        switch BroadcastRoute.send(method: request.method, path: request.path) {
        case nil: return nil
        case .rejected(let rejection)?:
            return routeRejection(rejection, request: request, environment: environment)
        case .route(let route)?:
            return decide(request, route: route, environment: environment, authenticator: authenticator, now: now)
        }
    }

    func decide(
        _ request: HTTPRequest, route: BroadcastRoute, environment: APNsEnvironment,
        authenticator: (any ConnectionAuthenticator)?, now: Timestamp
    ) -> BroadcastAnswer {
        var evaluation = BroadcastEvaluation(
            request: request, route: route, settings: settings, channels: channels, authenticator: authenticator,
            environment: environment, now: now)
        let requestID = Self.answeredRequestID(evaluation.requestID)
        var answer = BroadcastAnswer(
            operation: route.operation, bundleID: route.bundleID, status: 200, warnings: [], environment: environment,
            requestID: requestID)
        for rule in rules {
            if let rejection = rule.apply(to: &evaluation) {
                return rejected(answer, rejection, ruleID: rule.id, evaluation: evaluation)
            }
        }
        answer.warnings = evaluation.warnings
        answer.sender = evaluation.sender
        answer.channel = evaluation.channel
        answer.payload = evaluation.payload
        switch route.operation {
        case .createChannel:
            guard let created = channels.create(
                bundleID: route.bundleID, environment: environment,
                policy: evaluation.storagePolicy ?? .mostRecentMessageStored, limit: settings.channelLimit, now: now)
            else {
                return rejected(
                    answer, RuleRejection(.cannotCreateChannelConfig, BroadcastRule.channelLimitExplanation(evaluation)),
                    ruleID: BroadcastRule.channelLimit.id, evaluation: evaluation)
            }
            answer.status = 201
            answer.channel = created
        case .readChannel:
            answer.status = 200
        case .deleteChannel:
            if let channel = evaluation.channel {
                channels.delete(id: channel.id, bundleID: route.bundleID, environment: environment)
            }
            answer.status = 204
        case .listChannels:
            answer.listedChannelIDs = channels.channels(bundleID: route.bundleID, environment: environment).map(\.id)
        case .send:
            answer.uniqueID = ApnsID.newUniqueID()
        }
        return answer
    }

    private func rejected(
        _ answer: BroadcastAnswer, _ rejection: RuleRejection, ruleID: String, evaluation: BroadcastEvaluation
    ) -> BroadcastAnswer {
        var rejected = answer
        rejected.status = rejection.reason.status
        rejected.reason = rejection.reason
        rejected.explanation = rejection.explanation
        rejected.ruleID = ruleID
        rejected.warnings = evaluation.warnings
        rejected.sender = evaluation.sender
        rejected.presentedToken = evaluation.presentedToken
        rejected.channel = evaluation.channel
        return rejected
    }

    private func routeRejection(_ rejection: RuleRejection, request: HTTPRequest, environment: APNsEnvironment) -> BroadcastAnswer {
        let sent = request.value("apns-request-id") ?? request.value("apns-id")
        return BroadcastAnswer(
            status: rejection.reason.status, reason: rejection.reason, explanation: rejection.explanation,
            ruleID: "broadcast.route", warnings: [], environment: environment,
            requestID: Self.answeredRequestID(sent))
    }

    /// The client's request id when it is a UUID, else a new upper-case UUID (a malformed one is answered
    /// `BadMessageId` with a fresh id, as APNs does for `apns-id`: A-RESP).
    static func answeredRequestID(_ sent: String?) -> String {
        if let sent, ApnsID.isCanonicalUUID(sent) { return sent }
        return ApnsID.resolve(requestValue: nil)
    }
}
