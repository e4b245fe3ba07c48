import APNSJSON

extension PushRule {
    /// Above this, a UNIX time is read as milliseconds: 10^11 seconds is the year 5138, while milliseconds since
    /// 1973 are larger.
    static let millisecondsThreshold: Double = 100_000_000_000

    /// Warns `background-priority-10` for a `background` push with priority 10 or without priority (default 10).
    ///
    /// Source: A-SEND ("Always use priority 5. Using priority 10 is an error."), A-BG. Whether APNs rejects it is
    /// unknown; devices drop such pushes (threema-ch/push-relay#32, node-apn#241); A-SEND.
    public static let warnBackgroundPriority = PushRule(id: "warn.background-priority") { evaluation in
        guard evaluation.facts.pushType == .background, (evaluation.facts.priority ?? 10) == 10 else { return nil }
        let sent = evaluation.facts.priority == nil ? "no apns-priority (which means 10)" : "apns-priority 10"
        evaluation.warn(
            .backgroundPriority10,
            "background pushes must use apns-priority 5; this one has \(sent), which Apple calls an error")
        return nil
    }

    /// Warns about a `background` push whose `aps` lacks `content-available: 1` (the app is not woken) or carries
    /// `alert`, `badge` or `sound`.
    ///
    /// Source: A-BG ("the notification's aps dictionary … contains only the content-available key"), A-GEN
    /// (`content-available`: "specify the value 1 and don't include the alert, badge, or sound keys").
    public static let warnBackgroundPayload = PushRule(id: "warn.background-payload") { evaluation in
        guard evaluation.facts.pushType == .background, let aps = evaluation.aps else { return nil }
        let flag = aps["content-available"]
        if flag?.doubleValue != 1, flag != .bool(true) {
            evaluation.warn(
                .backgroundWithoutContentAvailable,
                "background pushes need \"content-available\": 1 in aps, or the app is not woken")
        }
        let visible = ["alert", "badge", "sound"].filter { aps[$0] != nil }
        if !visible.isEmpty {
            evaluation.warn(
                .backgroundWithAlert,
                "background pushes should carry only content-available in aps; found "
                    + "\(visible.joined(separator: ", ")). "
                    + "Send a user-visible push as apns-push-type alert")
        }
        return nil
    }

    /// Warns when `apns-expiration` looks like milliseconds, or is non-zero and already past.
    ///
    /// Source: A-SEND (`apns-expiration`: "UNIX epoch expressed in seconds"; 0 means "attempt once").
    public static let warnExpiration = PushRule(id: "warn.expiration") { evaluation in
        guard let expiration = evaluation.facts.expiration, expiration != 0 else { return nil }
        let nowSeconds = evaluation.now.secondsSinceEpoch
        if Double(expiration) > millisecondsThreshold {
            evaluation.warn(
                .expirationMilliseconds,
                "apns-expiration \(expiration) looks like milliseconds; it is UNIX seconds (about "
                    + "\(Int64(saturating: nowSeconds)) now)")
        } else if Double(expiration) < nowSeconds {
            evaluation.warn(
                .expirationPast,
                "apns-expiration \(expiration) is in the past (now is \(Int64(saturating: nowSeconds))); APNs will not store the "
                    + "push for an offline device. Use 0 for 'deliver now or never'")
        }
        return nil
    }

    /// Warns `liveactivity-priority-1` for a Live Activity push with priority 1.
    ///
    /// Source: A-LA (Live Activity pushes use priority 5 or 10), A-SEND.
    public static let warnLiveActivityPriority = PushRule(id: "warn.liveactivity-priority") { evaluation in
        guard evaluation.facts.pushType == .liveactivity, evaluation.facts.priority == 1 else { return nil }
        evaluation.warn(
            .liveActivityPriority1, "Live Activity pushes use apns-priority 5 or 10 (10 counts against the budget)")
        return nil
    }

    /// Warns when a JSON-object payload has no `aps` dictionary, or `aps` is not a dictionary. `{}` alone (Wallet
    /// pass updates) and `mdm` pushes are exempt.
    ///
    /// Source: A-GEN ("include an aps key whose value is a dictionary"); Wallet sends "an empty JSON dictionary"
    /// (parse-community/node-apn#219).
    public static let warnAPSPresent = PushRule(id: "warn.aps-present") { evaluation in
        guard let payload = evaluation.payload, let members = payload.members, !members.isEmpty,
              evaluation.facts.pushType != .mdm else {
            return nil
        }
        guard let aps = payload["aps"] else {
            evaluation.warn(
                .apsMissing,
                "the payload has no aps dictionary; Apple's keys (alert, content-available, event …) go inside "
                    + "\"aps\", your own keys beside it")
            return nil
        }
        if !aps.isObject {
            evaluation.warn(.apsNotObject, "aps must be a dictionary; got a JSON \(aps.kindName)")
        }
        return nil
    }

    /// Warns about keys inside `aps` that Apple does not define: `aps-unknown-key` for near misses of an Apple key
    /// (`state-date`, `contentAvailable`), `aps-custom-key` for the rest; and `aps-key-type` for Apple keys whose
    /// value has the wrong JSON type.
    ///
    /// Source: A-GEN ("Don't add your own custom keys to the aps dictionary; APNs ignores custom keys", Table 1
    /// value types); kalyke's `state-date` (A-JSONDEC).
    public static let warnAPSKeys = PushRule(id: "warn.aps-keys") { evaluation in
        guard let aps = evaluation.aps else { return nil }
        // Usually every key is Apple's with a value of its type: one pass over the members says so without sorting
        // or looking each key up again; otherwise the warnings are built in key order below.
        let allKnownAndTyped = aps.members?.allSatisfy { member in
            APSKey.valueType(ofKey: member.key)?.accepts(member.value) == true
        } ?? true
        if allKnownAndTyped { return nil }
        for key in (aps.keys ?? []).sorted() {
            let value = aps[key] ?? .null
            if let type = APSKey.known[key] {
                if !type.accepts(value) {
                    evaluation.warn(.apsKeyType, "aps.\(key) must be \(type.name); got a JSON \(value.kindName)")
                }
            } else if let intended = APSKey.likelyIntended(key) {
                evaluation.warn(
                    .apsUnknownKey,
                    "aps.\(key) is not an Apple key; did you mean \(intended)? The device ignores it as written")
            } else {
                evaluation.warn(
                    .apsCustomKey,
                    "aps.\(key) is not an Apple key; put your own keys beside aps, not inside it (APNs ignores them)")
            }
        }
        return nil
    }

    /// Warns when `aps.timestamp`, `aps.stale-date` or `aps.dismissal-date` look like milliseconds, and when
    /// `aps.stale-date` is already past.
    ///
    /// Source: A-GEN Table 1 and A-LA (these are UNIX seconds); hapns sends `Date.now` milliseconds (A-JSONDEC);
    /// capacitor-live-activity#7 (`dismissal-date` in ms); nalu PR #222 (a past stale date).
    public static let warnAPSDates = PushRule(id: "warn.aps-dates") { evaluation in
        guard let members = evaluation.aps?.members else { return nil }
        let dates = APSDates(members)
        guard dates.timestamp != nil || dates.staleDate != nil || dates.dismissalDate != nil else { return nil }
        let nowSeconds = evaluation.now.secondsSinceEpoch
        // In `apsDateKeys`' order, each value read once (a loop over the keys looked each value up by a string switch).
        let timestamp = dates.timestamp?.doubleValue
        let staleDate = dates.staleDate?.doubleValue
        let dismissalDate = dates.dismissalDate?.doubleValue
        /// The warning for the date key at `position` of `apsDateKeys` whose value is `seconds`, if it is one.
        func warnIfMilliseconds(_ seconds: Double?, position: Int) {
            guard let seconds, seconds > millisecondsThreshold else { return }
            let (key, code) = apsDateKeys[position]
            evaluation.warn(
                code,
                "aps.\(key) \(secondsText(seconds)) looks like milliseconds; it is UNIX seconds "
                    + "(about \(Int64(saturating: nowSeconds)) now)")
        }
        warnIfMilliseconds(timestamp, position: 0)
        warnIfMilliseconds(staleDate, position: 1)
        warnIfMilliseconds(dismissalDate, position: 2)
        if let stale = staleDate, stale <= millisecondsThreshold, stale < nowSeconds {
            evaluation.warn(
                .apsStaleDatePast,
                "aps.stale-date \(secondsText(stale)) is already past (now is \(Int64(saturating: nowSeconds))); "
                    + "the Live Activity shows as stale at once")
        }
        return nil
    }
}

extension PushRule {
    /// The `aps` keys that hold UNIX seconds, with the warning for a value that looks like milliseconds (made once,
    /// not per push).
    static let apsDateKeys: [(key: String, code: PushWarningCode)] = [
        ("timestamp", .apsTimestampMilliseconds),
        ("stale-date", .apsStaleDateMilliseconds),
        ("dismissal-date", .apsDismissalDateMilliseconds),
    ]

    /// The values of `aps`'s date keys (the first of duplicate keys, as `aps[key]` reads them), found in one pass
    /// over its members instead of one search per key.
    struct APSDates {
        var timestamp: JSONValue?
        var staleDate: JSONValue?
        var dismissalDate: JSONValue?

        init(_ members: [JSONMember]) {
            // The key's length picks the one name it is compared with (the names are ASCII, and no other spelling
            // of them is equal as a String).
            for member in members {
                switch member.key.utf8.count {
                case 9: if timestamp == nil, member.key == "timestamp" { timestamp = member.value }
                case 10: if staleDate == nil, member.key == "stale-date" { staleDate = member.value }
                case 14: if dismissalDate == nil, member.key == "dismissal-date" { dismissalDate = member.value }
                default: continue
                }
            }
        }
    }

    /// A number of seconds without a trailing `.0` when it is whole.
    static func secondsText(_ value: Double) -> String {
        JSONValue.number(value).compactText
    }
}
