
/// The facts of one request that fault specs match on.
public struct FaultRequest: Sendable, Equatable {
    public var deviceToken: String?
    public var topic: String?
    public var keyID: String?
    public var teamID: String?
    public var connection: UInt64
    public var pushType: String?
    /// 1 for the first request on its connection, 2 for the second, …
    public var requestsOnConnection: Int
    public var now: Timestamp

    public init(
        deviceToken: String? = nil, topic: String? = nil, keyID: String? = nil, teamID: String? = nil,
        connection: UInt64 = 0, pushType: String? = nil, requestsOnConnection: Int = 1, now: Timestamp = .zero
    ) {
        self.deviceToken = deviceToken
        self.topic = topic
        self.keyID = keyID
        self.teamID = teamID
        self.connection = connection
        self.pushType = pushType
        self.requestsOnConnection = requestsOnConnection
        self.now = now
    }
}

/// A fault that fired for one request: the spec, its position in the list, and what to do.
public struct FaultFiring: Sendable, Equatable {
    public var spec: FaultSpec
    public var index: Int
    public var effect: Effect

    public enum Effect: Sendable, Equatable {
        /// The spec's action as given (`delay` carries the drawn milliseconds).
        case action(FaultAction)
        case delay(milliseconds: Int)
        /// `unregisterAfter`: the token counts as unregistered since `since`; answer 410 Unregistered.
        case unregistered(since: Timestamp)
    }
}

/// A spec with its counters, as `GET /api/config/faults` shows it.
public struct FaultStatus: Sendable, Equatable {
    public var spec: FaultSpec
    /// Requests that matched and were inside the time window.
    public var matched: Int
    /// Requests the fault was applied to.
    public var fired: Int
}

/// The thread-safe list of fault specs, changed at run time through the admin API. `evaluate` answers "which fault
/// applies to this request" and keeps each spec's counters; the first spec (in list order) that fires wins, and
/// specs after it are not consulted for that request. A spec whose `remaining` is used up is removed.
public final class FaultEngine: Sendable {
    private struct Entry: Sendable {
        var spec: FaultSpec
        var random: SplitMix64
        var matched = 0
        var fired = 0
        /// `unregisterAfter`: pushes answered normally so far, per token, and when each token was flipped.
        var pushesPerToken: [String: Int] = [:]
        var unregisteredSince: [String: Timestamp] = [:]
    }

    /// A push with no fault configured (the usual case) is answered without building a `FaultRequest` or taking
    /// the lock (`isEmpty`).
    private let entries = EmptinessTrackingLock<[Entry]>([])
    private let tokens: DeviceTokenRegistry?

    /// `tokens`: where `unregisterAfter` flips declared tokens, so that the rules answer 410 for them.
    public init(_ initial: [FaultSpec] = [], tokens: DeviceTokenRegistry? = nil) {
        self.tokens = tokens
        for spec in initial { add(spec) }
    }

    public func add(_ spec: FaultSpec) {
        var spec = spec
        if spec.scope.seed == nil && (spec.scope.probability != nil || Self.drawsDelay(spec.action)) {
            spec.scope.seed = UInt64.random(in: 0...UInt64(Int64.max))
        }
        let entry = Entry(spec: spec, random: SplitMix64(seed: spec.scope.seed ?? 0))
        entries.withLock { $0.append(entry) }
    }

    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// True when no fault spec is configured, so none can fire.
    public var isEmpty: Bool { entries.isEmpty }

    public var specs: [FaultSpec] { entries.withLock { $0.map(\.spec) } }

    public var statuses: [FaultStatus] {
        entries.withLock { $0.map { FaultStatus(spec: $0.spec, matched: $0.matched, fired: $0.fired) } }
    }

    /// The fault that applies to `request`, if any, counting it against its spec.
    public func evaluate(_ request: FaultRequest) -> FaultFiring? {
        entries.withLock { list -> FaultFiring? in
            for index in list.indices {
                guard Self.matches(list[index].spec, request) else { continue }
                if case .unregisterAfter(let count) = list[index].spec.action {
                    guard let token = request.deviceToken else { continue }
                    if let firing = unregister(&list[index], index: index, token: token, after: count, now: request.now) {
                        return firing
                    }
                    continue
                }
                guard let effect = Self.scopeFires(&list[index], now: request.now) else { continue }
                let firing = FaultFiring(spec: list[index].spec, index: index, effect: effect)
                if let remaining = list[index].spec.scope.remaining, list[index].fired >= remaining {
                    list.remove(at: index)
                }
                return firing
            }
            return nil
        }
    }

    // MARK: - Private

    private static func drawsDelay(_ action: FaultAction) -> Bool {
        if case .delay(let low, let high) = action { return low != high }
        return false
    }

    public static func matches(_ spec: FaultSpec, _ request: FaultRequest) -> Bool {
        let match = spec.match
        if let token = match.deviceToken, token != request.deviceToken?.lowercased() { return false }
        if let topic = match.topic, topic != request.topic { return false }
        if let keyID = match.keyID, keyID != request.keyID { return false }
        if let teamID = match.teamID, teamID != request.teamID { return false }
        if let connection = match.connection, connection != request.connection { return false }
        if let pushType = match.pushType, pushType != request.pushType { return false }
        if case .goAway(let goAway) = spec.action, let streams = goAway.afterStreams, request.requestsOnConnection < streams {
            return false
        }
        return true
    }

    private static func inWindow(_ scope: FaultScope, now: Timestamp) -> Bool {
        let seconds = Double(now.millisecondsSinceEpoch) / 1000
        if let from = scope.from, seconds < from { return false }
        if let until = scope.until, seconds >= until { return false }
        return true
    }

    /// Window, then `every`, then the seeded draw; counts the match and, when it fires, the firing.
    private static func scopeFires(_ entry: inout Entry, now: Timestamp) -> FaultFiring.Effect? {
        let scope = entry.spec.scope
        guard inWindow(scope, now: now) else { return nil }
        entry.matched += 1
        if let every = scope.every, entry.matched % every != 0 { return nil }
        if let probability = scope.probability, !(entry.random.nextUnitInterval() < probability) { return nil }
        entry.fired += 1
        if case .delay(let low, let high) = entry.spec.action {
            let drawn = low == high ? low : low + Int(entry.random.next() % UInt64(high - low + 1))
            return .delay(milliseconds: drawn)
        }
        return .action(entry.spec.action)
    }

    /// `unregisterAfter`: the first `count` pushes to a token are answered by the rules; then the token is
    /// unregistered. A declared token is flipped in the registry, so the rules answer 410 from then on (no
    /// injection); an undeclared one is answered 410 Unregistered by this fault.
    private func unregister(_ entry: inout Entry, index: Int, token: String, after count: Int, now: Timestamp) -> FaultFiring? {
        guard Self.inWindow(entry.spec.scope, now: now) else { return nil }
        let key = token.lowercased()
        entry.matched += 1
        if let since = entry.unregisteredSince[key] {
            if case .declared(let declared) = tokens?.lookup(key), case .unregistered = declared.state { return nil }
            entry.fired += 1
            return FaultFiring(spec: entry.spec, index: index, effect: .unregistered(since: since))
        }
        let seen = entry.pushesPerToken[key, default: 0]
        if seen < count {
            entry.pushesPerToken[key] = seen + 1
            if seen + 1 == count { flip(&entry, token: key, now: now) }
            return nil
        }
        // unregisterAfter 0: this very push already finds the token unregistered.
        flip(&entry, token: key, now: now)
        entry.fired += 1
        return FaultFiring(spec: entry.spec, index: index, effect: .unregistered(since: now))
    }

    private func flip(_ entry: inout Entry, token: String, now: Timestamp) {
        entry.unregisteredSince[token] = now
        tokens?.setState(.unregistered(at: now), forToken: token)
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a small, fast pseudo-random sequence fully determined by its seed, so a
/// fault's probability draws repeat exactly in another run with the same seed (and tests' random inputs replay).
public struct SplitMix64: RandomNumberGenerator, Sendable, Equatable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in [0, 1) with 53 random bits.
    public mutating func nextUnitInterval() -> Double {
        Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }
}
