/// The warnings that mean the device will misbehave although APNs answered 200 and the device took the push: it
/// shows a wrong date, ignores every later correct update, never goes stale, is not woken, or loses a key the sender
/// meant. A push with one of them is not shown as a plain "accepted" (the list, the detail and the activity view of
/// the inspector, `deliveries`, `explain`, `push`) but as `200 · device will misbehave`; its status stays 200, what
/// APNs answered. Warnings about pushes the device drops or ignores are not here: the device's outcome already says
/// so (`200 · dropped by device`). Advice that loses nothing (`push-type-missing`, `aps-custom-key`,
/// `la-content-state-unknown-key`, ...) is not here either.
///
/// The codes are strings because the Live Activity codes are declared above this module (`LiveActivityWarningCode`);
/// a test checks that every one is in the warning catalogue.
public enum MisbehavingWarnings {
    public static let codes: Set<String> = [
        // The device-push rules (PushWarningCode, docs/rules.md).
        "background-priority-10",  // A-SEND: "Using priority 10 is an error"; devices drop it
        "background-without-content-available",  // the app is not woken (A-BG)
        "aps-missing", "aps-not-object",  // nothing for the device to show or act on (A-GEN)
        "aps-unknown-key",  // a misspelt Apple key: the device ignores it, its effect is lost
        "aps-key-type",  // an Apple key of the wrong JSON type is not read as meant (A-GEN Table 1)
        "aps-timestamp-milliseconds",  // every later update in seconds looks older and is ignored
        "aps-stale-date-milliseconds",  // the activity never goes stale
        "aps-dismissal-date-milliseconds",  // the ended activity is not dismissed when the sender meant
        "aps-stale-date-past",  // the activity is shown as stale at once
        "body-not-json-object",  // the device cannot read the body
        // The simulated Live Activity device (LiveActivityWarningCode, docs/live-activities.md).
        "la-timestamp-milliseconds", "la-timestamp-future",  // later honest updates look older and are ignored
        "la-content-state-unix-date", "la-attributes-unix-date",  // Unix seconds decode as 2057 (2001-based Date)
        "la-stale-date-milliseconds", "la-stale-date-past", "la-stale-date-not-number",
        "la-dismissal-date-milliseconds", "la-dismissal-date-not-number",
    ]

    /// The codes of `warnings` that are in `codes`, in their order.
    public static func codes(in warnings: [PushWarning]) -> [String] {
        warnings.map(\.code).filter { codes.contains($0) }
    }
}
