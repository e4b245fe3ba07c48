/// One page of the simulated device's activities (`LiveActivityDevice.activities(from:limit:now:)`).
public struct ActivityPage: Sendable {
    /// In the order the tokens were first seen.
    public var activities: [ActivitySnapshot]
    /// The position to read the next page from; nil when this page is the last.
    public var next: Int?
    /// How many tokens the device knows.
    public var total: Int
    /// Pass to `activities(changedSince:)` to learn what pushes changed after this page was read.
    public var changeSequence: Int
}

/// The activities pushes changed since a change sequence (`LiveActivityDevice.activities(changedSince:limit:now:)`).
public struct ActivityChanges: Sendable {
    /// Most recently changed first; empty when `complete` is false.
    public var activities: [ActivitySnapshot]
    /// False when the changes cannot be told apart (too many, a reset, trimmed notes): load a page again.
    public var complete: Bool
    /// Pass to the next call.
    public var changeSequence: Int
}
