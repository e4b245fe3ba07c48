/// `aps.event` of a `liveactivity` push. Source: A-GEN Table 1, A-LA (A-GEN).
public enum LiveActivityEvent: String, Sendable, Hashable, Codable, CaseIterable {
    /// Push-to-start (iOS 17.2+): creates an activity; needs `attributes-type`, `attributes`, `content-state`,
    /// `alert`.
    case start
    /// Replaces the content state.
    case update
    /// Ends the activity, optionally with a final content state and a `dismissal-date`.
    case end
}
