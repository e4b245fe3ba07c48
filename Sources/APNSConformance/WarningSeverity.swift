/// How `accepted.warnings` weighs each warning code of the delivery record, by the grading principle
/// (docs/conformance.md): a code that means the device drops the push or reads it wrong under conditions Apple
/// documents fails; a code for advice that loses nothing warns; a code only the check's own configuration can clear
/// (no schema given, no bundle IDs registered) is not held against the sender. Codes are the mock's stable spellings
/// (docs/rules.md, docs/authentication.md, docs/live-activities.md); a code not listed warns.
package enum WarningSeverity: String, Sendable, Equatable {
    case fail
    case warn
    /// Said by the mock about its own configuration, not about the sender.
    case notTheSender

    package static let table: [String: WarningSeverity] = [
        // The app is not woken / the push is an error per A-SEND, A-BG: the notification is lost.
        "background-without-content-available": .fail,
        "background-priority-10": .fail,
        // The device drops the Live Activity push or shows it wrong (A-LA, A-JSONDEC; docs/live-activities.md).
        "la-payload-not-json": .fail, "la-aps-missing": .fail, "la-event-missing": .fail, "la-event-invalid": .fail,
        "la-timestamp-missing": .fail, "la-timestamp-not-number": .fail, "la-timestamp-milliseconds": .fail,
        "la-timestamp-older-than-applied": .fail, "la-attributes-type-missing": .fail,
        "la-attributes-type-unknown": .fail, "la-attributes-missing": .fail, "la-attributes-invalid": .fail,
        "la-alert-missing": .fail, "la-content-state-missing": .fail, "la-content-state-invalid": .fail,
        "la-activity-data-too-large": .fail, "la-payload-too-large": .fail,
        // A Unix-epoch date that Swift's default JSONDecoder reads as seconds since 2001: shown as 2057.
        "la-content-state-unix-date": .fail, "la-attributes-unix-date": .fail,
        // Only the check's configuration can clear these: --activity-source / --activity-schema, a key with
        // registered bundle IDs, a device-token registry.
        "la-content-state-unchecked": .notTheSender, "auth-topic-unchecked": .notTheSender,
        "undeclared-device-token": .notTheSender,
    ]

    package static func of(_ code: String) -> WarningSeverity { table[code] ?? .warn }
}
