/// One page of the simulated device's activities (`LiveActivityDevice.activities(from:limit:now:)`).
package struct ActivityPage: Sendable {
    /// In the order the tokens were first seen.
    package var activities: [ActivitySnapshot]
    /// The position to read the next page from; nil when this page is the last.
    package var next: Int?
    /// How many tokens the device knows.
    package var total: Int
    /// Pass to `activities(changedSince:)` to learn what pushes changed after this page was read.
    package var changeSequence: Int
}

/// The activities pushes changed since a change sequence (`LiveActivityDevice.activities(changedSince:limit:now:)`).
package struct ActivityChanges: Sendable {
    /// Most recently changed first; empty when `complete` is false.
    package var activities: [ActivitySnapshot]
    /// False when the changes cannot be told apart (too many, a reset, trimmed notes): load a page again.
    package var complete: Bool
    /// Pass to the next call.
    package var changeSequence: Int
}
