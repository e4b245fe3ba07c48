import Synchronization

/// The simulated device, shared by every connection: it keeps, per token, the Live Activity the device would show
/// and what each push did to it. Thread-safe; all rules are in `LiveActivityDeviceState`.
public final class LiveActivityDevice: Sendable {
    let state: Locked<LiveActivityDeviceState>
    /// The configuration's schemas and timestamp tolerance, which a push's payload check needs before the device's
    /// lock is taken: as the device was made, read without any lock until a configuration is set
    /// (`settingsChanged`), then from `checkSettings` (set with the configuration, under the device's lock). Either
    /// way the check is done again under that lock if the configuration in force differs from what it used.
    private let initialSettings: CheckSettings
    private let settingsChanged = Atomic<Bool>(false)
    private let checkSettings: Locked<CheckSettings>

    private struct CheckSettings {
        var schemas: [ActivitySchema]
        var futureTimestampTolerance: Double

        init(_ configuration: LiveActivityConfiguration) {
            schemas = configuration.schemas
            futureTimestampTolerance = configuration.futureTimestampTolerance
        }
    }

    public init(
        configuration: LiveActivityConfiguration = LiveActivityConfiguration(),
        makeUpdateToken: @escaping @Sendable () -> String = UpdateTokenGenerator.random
    ) {
        state = Locked(LiveActivityDeviceState(configuration: configuration, makeUpdateToken: makeUpdateToken))
        initialSettings = CheckSettings(configuration)
        checkSettings = Locked(initialSettings)
    }

    /// What the device does with a push APNs accepted.
    public func receive(_ push: LiveActivityPush, now: Timestamp) -> LiveActivityResult {
        switch receive(push, now: now, admit: { _ in true }) {
        case .received(let result): result
        case .refused: preconditionFailure("admit always returns true")
        }
    }

    /// What the device does with a push APNs accepted, once `admit` (called under the device's lock with the
    /// payload's warnings) lets it through; a refused push changes nothing. What depends only on the push (most of
    /// the payload check) is done before the lock is taken, so the event-loop threads wait for each other only
    /// while the activity is read and changed.
    public func receive(
        _ push: LiveActivityPush, now: Timestamp, admit: ([PushWarning]) -> Bool
    ) -> LiveActivityReception {
        // A second lock taken by every push would make the event-loop threads meet twice.
        let settings = settingsChanged.load(ordering: .acquiring) ? checkSettings.withLock { $0 } : initialSettings
        var prepared = PreparedPush(
            push, now: now, schemas: settings.schemas, futureTimestampTolerance: settings.futureTimestampTolerance)
        return state.withLock { $0.receive(push, taking: &prepared, now: now, admit: admit) }
    }

    /// The token's activity and timeline as of `now`.
    public func activity(token: String, now: Timestamp) -> ActivitySnapshot? {
        state.withLock { $0.activity(token: token, now: now) }
    }

    /// Every token's activity and timeline as of `now`.
    public func allActivities(now: Timestamp) -> [ActivitySnapshot] {
        state.withLock { $0.allActivities(now: now) }
    }

    /// At most `limit` activities from `position` on, in the order the tokens were first seen. The lock is held
    /// only while the page is copied out: the caller serializes it without the lock.
    public func activities(from position: Int, limit: Int, now: Timestamp) -> ActivityPage {
        state.withLock { $0.activities(from: position, limit: limit, now: now) }
    }

    /// The activities pushes changed since `sequence` (`LiveActivityDeviceState.activities(changedSince:)`).
    public func activities(changedSince sequence: Int, limit: Int, now: Timestamp) -> ActivityChanges {
        state.withLock { $0.activities(changedSince: sequence, limit: limit, now: now) }
    }

    /// The activity a push with `apnsID` just applied (`LiveActivityDeviceState.recentActivityToken`).
    public func recentActivityToken(apnsID: String) -> String? {
        state.withLock { $0.recentActivityToken(apnsID: apnsID) }
    }

    /// Forgets every activity and timeline (the configuration stays).
    public func reset() {
        state.withLock { $0.reset() }
    }

    /// The configuration in force; setting it keeps activities and timelines.
    public var configuration: LiveActivityConfiguration {
        get { state.withLock { $0.configuration } }
        set {
            state.withLock { state in
                state.configuration = newValue
                checkSettings.withLock { $0 = CheckSettings(newValue) }
                settingsChanged.store(true, ordering: .releasing)
            }
        }
    }
}
