import APNSCore

/// The simulated device, shared by every connection: it keeps, per token, the Live Activity the device would show
/// and what each push did to it. Thread-safe; all rules are in `LiveActivityDeviceState`.
public final class LiveActivityDevice: Sendable {
    let state: Locked<LiveActivityDeviceState>

    public init(
        configuration: LiveActivityConfiguration = LiveActivityConfiguration(),
        makeUpdateToken: @escaping @Sendable () -> String = UpdateTokenGenerator.random
    ) {
        state = Locked(LiveActivityDeviceState(configuration: configuration, makeUpdateToken: makeUpdateToken))
    }

    /// What the device does with a push APNs accepted.
    public func receive(_ push: LiveActivityPush, now: Timestamp) -> LiveActivityResult {
        state.withLock { $0.receive(push, now: now) }
    }

    /// What the device does with a push APNs accepted, once `admit` (called under the device's lock with the
    /// payload's warnings) lets it through; a refused push changes nothing.
    public func receive(
        _ push: LiveActivityPush, now: Timestamp, admit: ([PushWarning]) -> Bool
    ) -> LiveActivityReception {
        state.withLock { $0.receive(push, now: now, admit: admit) }
    }

    /// The token's activity and timeline as of `now`.
    public func activity(token: String, now: Timestamp) -> ActivitySnapshot? {
        state.withLock { $0.activity(token: token, now: now) }
    }

    /// Every token's activity and timeline as of `now`.
    public func allActivities(now: Timestamp) -> [ActivitySnapshot] {
        state.withLock { $0.allActivities(now: now) }
    }

    /// Forgets every activity and timeline (the configuration stays).
    public func reset() {
        state.withLock { $0.reset() }
    }

    /// The configuration in force; setting it keeps activities and timelines.
    public var configuration: LiveActivityConfiguration {
        get { state.withLock { $0.configuration } }
        set { state.withLock { $0.configuration = newValue } }
    }
}
