import APNSCore

/// The legacy form of a fault (a scripted status answer): match by device token and/or topic (nil matches all),
/// answer the next `remaining` matching requests (nil: until removed). Any `FaultSpec` JSON is accepted where this
/// was; this struct remains for code that builds scripted answers directly.
package struct ScriptedAnswer: Codable, Sendable, Equatable {
    package var deviceToken: String?
    package var topic: String?
    package var status: Int
    package var reason: String?
    /// Integer milliseconds, sent only with 410 (A-RESP).
    package var timestamp: Int64?
    /// HTTP/2 GOAWAY after the answer, with `{"reason": ...}` as debug data as APNs does (A-SEND).
    package var goAway: Bool?
    package var remaining: Int?

    package init(deviceToken: String? = nil, topic: String? = nil, status: Int, reason: String?, timestamp: Int64? = nil, goAway: Bool? = nil, remaining: Int? = nil) {
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
    package init(_ script: ScriptedAnswer) {
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
package final class ScriptedAnswers: Sendable {
    package let engine: FaultEngine

    package init(_ initial: [ScriptedAnswer] = []) {
        engine = FaultEngine(initial.map(FaultSpec.init))
    }

    package init(specs: [FaultSpec], tokens: DeviceTokenRegistry?) {
        engine = FaultEngine(specs, tokens: tokens)
    }

    package func add(_ script: ScriptedAnswer) { engine.add(FaultSpec(script)) }
    package func add(_ spec: FaultSpec) { engine.add(spec) }
    package func removeAll() { engine.removeAll() }
    /// The status-answer faults in scripted-answer form (other faults: `engine.specs`).
    package var all: [ScriptedAnswer] { engine.specs.compactMap(ScriptedAnswer.init) }

    /// The scripted answer for this request, consuming one use of it; nil when no status-answer fault fires.
    package func take(deviceToken: String?, topic: String?) -> ScriptedAnswer? {
        guard let firing = engine.evaluate(FaultRequest(deviceToken: deviceToken, topic: topic)) else { return nil }
        return ScriptedAnswer(firing.spec)
    }
}
