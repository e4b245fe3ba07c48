import APNSCore

/// The one place in the request path where a scripted answer replaces the rules' answer (fault injection: 410s,
/// 503s, GOAWAY on demand). Each script matches requests by device token and/or topic (nil matches all) and
/// answers the next `remaining` matching requests (nil: until removed).
public struct ScriptedAnswer: Codable, Sendable, Equatable {
    public var deviceToken: String?
    public var topic: String?
    public var status: Int
    public var reason: String?
    /// Integer milliseconds, sent only with 410 (A-RESP).
    public var timestamp: Int64?
    /// HTTP/2 GOAWAY after the answer, with `{"reason": ...}` as debug data as APNs does (A-SEND, §1.4).
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

    func matches(deviceToken: String?, topic: String?) -> Bool {
        (self.deviceToken == nil || self.deviceToken == deviceToken) && (self.topic == nil || self.topic == topic)
    }
}

/// Thread-safe list of scripted answers, changed at run time through the admin API.
public final class ScriptedAnswers: Sendable {
    private let scripts = Locked<[ScriptedAnswer]>([])

    public init(_ initial: [ScriptedAnswer] = []) {
        scripts.withLock { $0 = initial }
    }

    public func add(_ script: ScriptedAnswer) { scripts.withLock { $0.append(script) } }
    public func removeAll() { scripts.withLock { $0.removeAll() } }
    public var all: [ScriptedAnswer] { scripts.withLock { $0 } }

    /// The scripted answer for this request, consuming one use of it; nil when no script matches.
    public func take(deviceToken: String?, topic: String?) -> ScriptedAnswer? {
        scripts.withLock { list -> ScriptedAnswer? in
            guard let index = list.firstIndex(where: { $0.matches(deviceToken: deviceToken, topic: topic) }) else { return nil }
            let script = list[index]
            if let remaining = script.remaining {
                if remaining <= 1 { list.remove(at: index) } else { list[index].remaining = remaining - 1 }
            }
            return script
        }
    }
}
