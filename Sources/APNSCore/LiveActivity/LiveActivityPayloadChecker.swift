import APNSJSON

/// Checks a `liveactivity` push body for everything the device would do differently from what the sender
/// expects. APNs itself does not look inside `aps` for Live Activities and answers 200 (A-GEN,
/// A-JSONDEC, A-LA); these are warnings for the delivery record. Rules are applied in this order: JSON and `aps`, `event`,
/// `timestamp`, dates and scores, per-event keys, decoding against the schema, sizes.
public enum LiveActivityPayloadChecker {
    /// The APNs limit for every device push except VoIP. Source: A-SEND, A-GEN.
    public static let payloadLimit = 4096
    /// "Static and dynamic data … can't exceed a combined size of 4 KB". Source: A-LADISP, A-LAUPD (A-GEN).
    public static let activityDataLimit = 4096
    /// A UNIX time beyond this (year 5138) is taken to be milliseconds.
    public static let millisecondThreshold: Double = 100_000_000_000

    /// Keys Apple documents inside `aps` (`APSKey.known`) but `content-changed`, a widget key (A-WIDGET) that this
    /// check names as unknown in a Live Activity push. Source: A-GEN Table 1 (A-GEN).
    public static let knownAPSKeys: Set<String> = Set(APSKey.known.keys).subtracting(["content-changed"])

    /// Checks `bytes`. `parsed` is the body as the caller already parsed it (the push rules parse every body once;
    /// it must be the parse of these same `bytes`: the size check bounds `content-state` by them); when nil the body
    /// is parsed here, which also explains why a body is not JSON.
    public static func check(
        payload bytes: [UInt8], parsed: JSONValue? = nil, context: LiveActivityCheckContext
    ) -> LiveActivityPayloadReport {
        var check = PreparedPayloadCheck(
            payload: bytes, parsed: parsed, now: context.now, schemas: context.schemas,
            futureTimestampTolerance: context.futureTimestampTolerance)
        return check.takeFinishedReport(
            activityAttributesType: context.activityAttributesType, activityAttributes: context.activityAttributes,
            lastAppliedTimestamp: context.lastAppliedTimestamp)
    }

    static func checkUnknownKeys(
        _ payload: LiveActivityPayload, members: borrowing APSMembers, into report: inout LiveActivityPayloadReport
    ) {
        guard members.hasUnknownKey, case .object(let members) = payload.aps else { return }
        for member in members where !knownAPSKeys.contains(member.key) {
            let suggestion = knownAPSKeys.min { EditDistance.between(member.key, $0) < EditDistance.between(member.key, $1) }
                .flatMap { EditDistance.between(member.key, $0) <= 2 ? " Did you mean \"\($0)\"?" : nil } ?? ""
            report.warnings.append(LiveActivityWarningCode.apsUnknownKey.warning(
                "aps.\(member.key) is not an aps key; the device ignores it (custom keys belong beside aps).\(suggestion)"))
        }
    }

    static func checkEvent(
        _ payload: LiveActivityPayload, members: borrowing APSMembers, into report: inout LiveActivityPayloadReport
    ) -> Bool {
        guard let raw = members.event else {
            report.warnings.append(LiveActivityWarningCode.eventMissing.warning(
                "aps.event is missing: send \"start\", \"update\" or \"end\"; the device drops the push"))
            return false
        }
        guard payload.event != nil else {
            report.warnings.append(LiveActivityWarningCode.eventInvalid.warning(
                "aps.event is \(raw.compactText): it must be \"start\", \"update\" or \"end\" (lower case); the "
                    + "device drops the push"))
            return false
        }
        return true
    }

    /// The timestamp's own warnings; whether it is older than the applied one is `olderThanAppliedWarning`'s.
    static func checkTimestamp(
        _ payload: LiveActivityPayload, members: borrowing APSMembers, now: Timestamp, futureTimestampTolerance: Double,
        into report: inout LiveActivityPayloadReport
    ) {
        let nowSeconds = Int64(saturating: now.secondsSinceEpoch)
        guard let raw = members.timestamp else {
            report.warnings.append(LiveActivityWarningCode.timestampMissing.warning(
                "aps.timestamp is missing: set it to the current UNIX time in seconds (e.g. \(nowSeconds)) so the "
                    + "device can order updates and ignore stale ones"))
            return
        }
        guard let timestamp = payload.timestamp else {
            report.warnings.append(LiveActivityWarningCode.timestampNotNumber.warning(
                "aps.timestamp is \(raw.typeDescription): it must be a number of seconds since 1970 (e.g. \(nowSeconds))"))
            return
        }
        if timestamp >= millisecondThreshold {
            report.warnings.append(LiveActivityWarningCode.timestampMilliseconds.warning(
                "aps.timestamp \(raw.compactText) is in milliseconds: send seconds since 1970 (\(Int64(saturating: timestamp / 1000))). "
                    + "Once applied, every later update with a correct timestamp looks older and is ignored"))
        } else if timestamp > now.secondsSinceEpoch + futureTimestampTolerance {
            let hours = (timestamp - now.secondsSinceEpoch) / 3600
            report.warnings.append(LiveActivityWarningCode.timestampFuture.warning(
                "aps.timestamp \(raw.compactText) (\(UTCDateText.format(unixSeconds: timestamp))) is "
                    + "\(formatted(hours)) h in the future: a device may drop it, and once applied every honest update "
                    + "looks older and is ignored; send the current time (\(nowSeconds))"))
        }
    }

    /// The warning for a `timestamp` (`raw`, read as `timestamp`) older than the activity's last applied one
    /// (`last`); nil when it is not older or the event is a start (which is not compared).
    static func olderThanAppliedWarning(
        raw: JSONValue, timestamp: Double, event: LiveActivityEvent, last: Double?
    ) -> PushWarning? {
        guard event != .start, let last, timestamp < last else { return nil }
        let effect = event == .end
            ? "an end with an older timestamp has been observed to apply anyway (forum 776165), but do not rely on it"
            : "the device ignores this \(event.rawValue) (A-LAUPD)"
        return LiveActivityWarningCode.timestampOlderThanApplied.warning(
            "aps.timestamp \(raw.compactText) is older than the last applied update (\(formatted(last))): \(effect)")
    }

    static func checkDates(
        _ payload: LiveActivityPayload, members: borrowing APSMembers, event: LiveActivityEvent, now: Timestamp,
        into report: inout LiveActivityPayloadReport
    ) {
        if let raw = members.staleDate {
            if let stale = checkUnixSeconds(raw, key: "stale-date", notNumber: .staleDateNotNumber,
                                            milliseconds: .staleDateMilliseconds, into: &report),
               stale < now.secondsSinceEpoch {
                report.warnings.append(LiveActivityWarningCode.staleDatePast.warning(
                    "aps.stale-date \(raw.compactText) (\(UTCDateText.format(unixSeconds: stale))) is already past: "
                        + "the activity is shown as stale at once; send a future time or omit it"))
            }
        }
        if let raw = members.dismissalDate {
            _ = checkUnixSeconds(raw, key: "dismissal-date", notNumber: .dismissalDateNotNumber,
                                 milliseconds: .dismissalDateMilliseconds, into: &report)
            if event != .end {
                report.warnings.append(LiveActivityWarningCode.dismissalDateWithoutEnd.warning(
                    "aps.dismissal-date only takes effect with event \"end\"; on \(event.rawValue) it is ignored"))
            }
        }
        if let raw = members.relevanceScore, payload.relevanceScore == nil {
            report.warnings.append(LiveActivityWarningCode.relevanceScoreNotNumber.warning(
                "aps.relevance-score is \(raw.typeDescription): it must be a number (e.g. 25, 50, 100); the highest "
                    + "score wins the Dynamic Island"))
        }
    }

    /// Reads a UNIX-seconds date key, warning when it is not a number or is in milliseconds.
    private static func checkUnixSeconds(
        _ raw: JSONValue, key: String, notNumber: LiveActivityWarningCode, milliseconds: LiveActivityWarningCode,
        into report: inout LiveActivityPayloadReport
    ) -> Double? {
        guard let seconds = raw.doubleValue else {
            report.warnings.append(notNumber.warning(
                "aps.\(key) is \(raw.typeDescription): it must be a number of seconds since 1970"))
            return nil
        }
        if seconds >= millisecondThreshold {
            report.warnings.append(milliseconds.warning(
                "aps.\(key) \(raw.compactText) is in milliseconds: send seconds since 1970 (\(Int64(saturating: seconds / 1000)))"))
            return seconds / 1000
        }
        return seconds
    }

    static func checkEventKeys(
        _ payload: LiveActivityPayload, members: borrowing APSMembers, event: LiveActivityEvent,
        into report: inout LiveActivityPayloadReport
    ) {
        if event == .start {
            if !payload.hasAlert {
                report.warnings.append(LiveActivityWarningCode.alertMissing.warning(
                    "start without aps.alert: APNs answers 200 but the device silently drops a push-to-start that has "
                        + "no alert; add {\"title\": …, \"body\": …}"))
            }
            if payload.hasInputPushToken, members.inputPushChannel != nil {
                report.warnings.append(LiveActivityWarningCode.inputPushBoth.warning(
                    "aps has both input-push-token and input-push-channel: they are mutually exclusive (device log "
                        + "\"Incoming message contains two forms of push input\"); send one"))
            }
        } else {
            // Each key in its own test rather than a loop over an array built for every push.
            if members.attributesType != nil { report.warnings.append(attributesIgnored("attributes-type", event)) }
            if members.attributes != nil { report.warnings.append(attributesIgnored("attributes", event)) }
            if members.inputPushToken != nil { report.warnings.append(inputPushNotStart("input-push-token", event)) }
            if members.inputPushChannel != nil { report.warnings.append(inputPushNotStart("input-push-channel", event)) }
        }
    }

    private static func attributesIgnored(_ key: String, _ event: LiveActivityEvent) -> PushWarning {
        LiveActivityWarningCode.attributesIgnored.warning(
            "aps.\(key) is only read on start; on \(event.rawValue) the device ignores it (static attributes "
                + "cannot change)")
    }

    private static func inputPushNotStart(_ key: String, _ event: LiveActivityEvent) -> PushWarning {
        LiveActivityWarningCode.inputPushNotStart.warning("aps.\(key) is only read on start; on \(event.rawValue) it is ignored")
    }

    /// `bodyBound`: at most this many bytes of static and dynamic data come from the push itself (three times the
    /// body's bytes: the compact form writes a `\b` it read as 2 bytes as `\u0008`, 6; nothing grows more), so when
    /// the stored attributes are absent and the bound is within the limit, nothing needs measuring.
    /// The payload is `report.payload`.
    static func checkCombinedSize(
        event: LiveActivityEvent, activityAttributes: JSONValue?, bodyBound: Int,
        into report: inout LiveActivityPayloadReport
    ) {
        if event == .start || activityAttributes == nil, bodyBound <= activityDataLimit { return }
        let staticData = event == .start ? report.payload?.attributes : activityAttributes
        let staticBytes = staticData?.compactByteCount ?? 0
        let dynamicBytes = report.payload?.contentState?.compactByteCount ?? 0
        if staticBytes + dynamicBytes > activityDataLimit {
            report.warnings.append(LiveActivityWarningCode.activityDataTooLarge.warning(
                "static attributes (\(staticBytes) bytes) + content-state (\(dynamicBytes) bytes) exceed ActivityKit's "
                    + "combined \(activityDataLimit)-byte limit (A-LADISP): the device drops the update; send less data "
                    + "and fetch the rest in the app"))
        }
    }

    static func formatted(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String((value * 10).rounded() / 10)
    }
}
