
/// What the simulated device made of a Live Activity push, in the four words a person filters on. APNs answers
/// 200 to all of them (A-LA); only the record knows the device dropped, ignored or throttled the push, so every view
/// shows these as a third verdict beside "accepted" and "rejected".
public enum DeviceHandling: String, Sendable, Hashable, CaseIterable {
    /// The push changed the activity (`applied`, `dismissed`).
    case applied
    /// The device ignored it (`ignoredOlderTimestamp`, `ignoredAlreadyEnded`, `ignoredNoActivity`).
    case ignored
    /// The device could not use it (`droppedUndecodableContentState`, `droppedStartWithoutAlert`, ...).
    case dropped
    /// Over the device's priority-10 budget (`throttled`).
    case throttled

    /// The class of a record's Live Activity outcome code; nil for a code the mock does not produce.
    public init?(outcomeCode code: String) {
        if code == "applied" || code == "dismissed" {
            self = .applied
        } else if code == "throttled" {
            self = .throttled
        } else if code.hasPrefix("ignored") {
            self = .ignored
        } else if code.hasPrefix("dropped") {
            self = .dropped
        } else {
            return nil
        }
    }

    /// The words shown after the status: `200 · dropped by device`.
    public var label: String {
        switch self {
        case .applied: "applied"
        case .ignored: "ignored"
        case .dropped: "dropped by device"
        case .throttled: "throttled"
        }
    }

    /// Whether `code` (a record's `liveActivity.code`) is of this class; the SQLite store uses the same test in SQL.
    public func matches(outcomeCode code: String?) -> Bool {
        code.flatMap(DeviceHandling.init(outcomeCode:)) == self
    }
}

extension DeliveryRecord {
    /// The device's handling of a Live Activity push; nil for other pushes.
    public var deviceHandling: DeviceHandling? {
        liveActivity.flatMap { DeviceHandling(outcomeCode: $0.code) }
    }

    /// True for a push APNs accepted (200) that the simulated device dropped, ignored or throttled: the third
    /// verdict, neither a plain "accepted" nor a rejection.
    public var acceptedButNotApplied: Bool {
        accepted && deviceHandling.map { $0 != .applied } == true
    }

    /// The codes of the warnings that mean the device will misbehave (`MisbehavingWarnings`) when they decide the
    /// verdict: the push was accepted and the device, if simulated, took it; else empty (a rejection or a device
    /// drop already says more).
    public var misbehavingWarningCodes: [String] {
        guard accepted, !acceptedButNotApplied, !warnings.isEmpty else { return [] }
        return MisbehavingWarnings.codes(in: warnings)
    }

    /// True for a push APNs accepted whose warnings mean the device will misbehave: shown as
    /// `200 · device will misbehave`, never as a plain "accepted".
    public var willMisbehaveOnDevice: Bool { !misbehavingWarningCodes.isEmpty }

    /// The words after the status of a push that will misbehave.
    public static let misbehavesLabel = "device will misbehave"

    /// `200`, or `200 · dropped by device` / `200 · ignored` / `200 · throttled` for the third verdict, or
    /// `200 · device will misbehave`.
    public var statusLabel: String {
        if acceptedButNotApplied, let handling = deviceHandling { return "\(status) · \(handling.label)" }
        if willMisbehaveOnDevice { return "\(status) · \(Self.misbehavesLabel)" }
        return String(status)
    }

    /// How to fix the answer, from the rule that decided it (`HowToFix`); nil for a 200.
    public var fix: String? {
        status == 200 ? nil : HowToFix.text(ruleID: ruleID, reason: reason)
    }
}
