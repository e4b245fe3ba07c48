import APNSCore

/// The legacy form of a fault (a scripted status answer): match by device token and/or topic (nil matches all),
/// answer the next `remaining` matching requests (nil: until removed). Any `FaultSpec` JSON is accepted where this
/// was; this struct remains for code that builds scripted answers directly.
public struct ScriptedAnswer: Codable, Sendable, Equatable {
    public var deviceToken: String?
    public var topic: String?
    public var status: Int
    public var reason: String?
    /// Integer milliseconds, sent only with 410 (A-RESP).
    public var timestamp: Int64?
    /// HTTP/2 GOAWAY after the answer, with `{"reason": ...}` as debug data as APNs does (A-SEND).
    public var goAway: Bool?
    public var remaining: Int?

    public init(deviceToken: String? = nil, topic: String? = nil, status: Int, reason: String?, timestamp: Int64? = nil, goAway: Bool? = nil, remaining: Int? = nil) {
        self.deviceToken = deviceToken
        self.topic = topic
        self.status = status
        self.reason = reason
        self.timestamp = timestamp
        self.goAway = goAway
        self.remaining = remaining
    }

    /// The scripted answer a status-answer spec stands for; nil for other actions.
    init?(_ spec: FaultSpec) {
        guard case .answer(let status, let reason, let timestamp, let goAway) = spec.action else { return nil }
        self.init(
            deviceToken: spec.match.deviceToken, topic: spec.match.topic, status: status, reason: reason?.rawValue,
            timestamp: timestamp, goAway: goAway ? true : nil, remaining: spec.scope.remaining)
    }
}

extension FaultSpec {
    /// The fault spec for a legacy scripted answer (its reason kept as given when APNs does not know it).
    public init(_ script: ScriptedAnswer) {
        self.init(
            match: FaultMatch(deviceToken: script.deviceToken?.lowercased(), topic: script.topic),
            action: .answer(
                status: script.status, reason: script.reason.flatMap(Reason.init(rawValue:)), timestamp: script.timestamp,
                goAway: script.goAway == true),
            scope: FaultScope(remaining: script.remaining))
    }
}

/// Thread-safe list of faults (fault injection), changed at run time through the admin API: a facade over
/// `FaultEngine` that keeps the scripted-answer API.
public final class ScriptedAnswers: Sendable {
    public let engine: FaultEngine

    public init(_ initial: [ScriptedAnswer] = []) {
        engine = FaultEngine(initial.map(FaultSpec.init))
    }

    public init(specs: [FaultSpec], tokens: DeviceTokenRegistry?) {
        engine = FaultEngine(specs, tokens: tokens)
    }

    public func add(_ script: ScriptedAnswer) { engine.add(FaultSpec(script)) }
    public func add(_ spec: FaultSpec) { engine.add(spec) }
    public func removeAll() { engine.removeAll() }
    /// The status-answer faults in scripted-answer form (other faults: `engine.specs`).
    public var all: [ScriptedAnswer] { engine.specs.compactMap(ScriptedAnswer.init) }

    /// The scripted answer for this request, consuming one use of it; nil when no status-answer fault fires.
    public func take(deviceToken: String?, topic: String?) -> ScriptedAnswer? {
        guard let firing = engine.evaluate(FaultRequest(deviceToken: deviceToken, topic: topic)) else { return nil }
        return ScriptedAnswer(firing.spec)
    }
}
