import APNSJSON

/// The Live Activity payload check in two steps, split at what the activity behind the token decides. `init`
/// needs only the push, the time and the configuration (schemas, timestamp tolerance), so the simulated device runs
/// it before it takes its lock; `finish` adds, under the lock, what depends on the activity: whether the timestamp
/// is older than the last applied one, the schema an update is checked against when that needs the activity's type,
/// and the combined size with the activity's stored attributes. `LiveActivityPayloadChecker.check` is these two
/// steps, so both give the same report, warnings in the same order. Not copyable: it is built once per push and
/// moved or lent (a copy retained every field of its report, payload and schemas).
struct PreparedPayloadCheck: ~Copyable, Sendable {
    /// The report so far: complete when `pending` is nil (the body has no readable event).
    private(set) var report: LiveActivityPayloadReport
    // `Optional<…>`, not `T?`: a stored `var` of type `T?` starts as nil, so an init that sets it copied the
    // whole value once more (every field retained, then released).
    private var pending: Optional<Pending>
    /// `aps.event` as the timeline keeps it: its text, or its JSON when it is not a string.
    private(set) var eventText: Optional<String>
    let now: Timestamp
    let schemas: [ActivitySchema]
    let futureTimestampTolerance: Double

    private struct Pending: Sendable {
        let event: LiveActivityEvent
        /// `aps.timestamp` as sent, when it is a number (nil otherwise: then it is not compared).
        let rawTimestamp: JSONValue?
        /// `aps.timestamp` as read (`LiveActivityPayload.timestamp`).
        let timestamp: Double?
        /// Where the older-than-applied warning goes: after the timestamp's own.
        let olderWarningIndex: Int
        /// Whether the decoding's results and warnings are in `report` already (they are unless an update's
        /// schema depends on the activity's type).
        let isDecoded: Bool
        /// `content-state`'s issues against the only configured schema, worked out here.
        let onlySchemaIssues: [DecodeIssue]?
        /// Three times the body's bytes (`LiveActivityPayloadChecker.checkCombinedSize`).
        let bodyBound: Int
    }

    init(
        payload bytes: [UInt8], parsed: JSONValue?, now: Timestamp, schemas: [ActivitySchema],
        futureTimestampTolerance: Double
    ) {
        self.now = now
        self.schemas = schemas
        self.futureTimestampTolerance = futureTimestampTolerance
        // Every stored property is set first, so the checks below write into `report` in place (no report built
        // aside and copied in at each exit).
        report = LiveActivityPayloadReport()
        pending = nil
        eventText = nil
        typealias Checker = LiveActivityPayloadChecker
        if bytes.count > Checker.payloadLimit {
            report.warnings.append(LiveActivityWarningCode.payloadTooLarge.warning(
                "payload is \(bytes.count) bytes, over the \(Checker.payloadLimit)-byte limit: real APNs answers 413 "
                    + "PayloadTooLarge and nothing reaches the device; shrink content-state"))
        }
        let json: JSONValue
        if let parsed {
            json = parsed
        } else {
            do {
                json = try JSONParser.parse(bytes)
            } catch {
                report.warnings.append(LiveActivityWarningCode.payloadNotJSON.warning(
                    "body is not JSON (\(error.description)): the device cannot read it"))
                return
            }
        }
        guard let aps = json["aps"], case .object(let apsMembers) = aps else {
            report.warnings.append(LiveActivityWarningCode.apsMissing.warning(
                "body has no \"aps\" object: a Live Activity push carries its event, timestamp and content-state in aps"))
            return
        }
        let members = APSMembers(apsMembers)
        let payload = LiveActivityPayload(aps: aps, members: members)
        eventText = members.event.map(Self.eventText)
        // `report.payload` is set at each exit below, after the checks' last use of `payload` (no checker reads
        // it from the report), so it is moved there rather than copied.
        Checker.checkUnknownKeys(payload, members: members, into: &report)
        guard Checker.checkEvent(payload, members: members, into: &report), let event = payload.event else {
            report.payload = payload
            return
        }
        Checker.checkTimestamp(
            payload, members: members, now: now, futureTimestampTolerance: futureTimestampTolerance, into: &report)
        let olderWarningIndex = report.warnings.count
        Checker.checkDates(payload, members: members, event: event, now: now, into: &report)
        Checker.checkEventKeys(payload, members: members, event: event, into: &report)
        // An update's schema depends on the activity's type only when there are schemas to choose from and a
        // content-state to check; with one schema, the one it is checked against is known now.
        let dependsOnActivity = event != .start && payload.contentState != nil && !schemas.isEmpty
        var onlySchemaIssues: [DecodeIssue]?
        if !dependsOnActivity {
            Checker.checkDecoding(
                payload, event: event,
                context: LiveActivityCheckContext(
                    now: now, schemas: schemas, futureTimestampTolerance: futureTimestampTolerance),
                into: &report)
        } else if schemas.count == 1, let only = schemas.first, only.contentStateChecked, let contentState = payload.contentState {
            onlySchemaIssues = ContentStateChecker.check(contentState, fields: only.contentState, path: "content-state")
        }
        pending = Pending(
            event: event, rawTimestamp: payload.timestamp == nil ? nil : members.timestamp,
            timestamp: payload.timestamp,
            olderWarningIndex: olderWarningIndex, isDecoded: !dependsOnActivity, onlySchemaIssues: onlySchemaIssues,
            bodyBound: 3 * bytes.count)
        report.payload = payload
    }

    /// The whole report for a push to an activity of type `activityAttributesType` with `activityAttributes`
    /// whose last applied `aps.timestamp` is `lastAppliedTimestamp` (all nil when the token shows no activity),
    /// taken out of this check rather than copied (the check keeps an empty one; its `eventText` and the rest
    /// stay).
    mutating func takeFinishedReport(
        activityAttributesType: String?, activityAttributes: JSONValue?, lastAppliedTimestamp: Double?
    ) -> LiveActivityPayloadReport {
        finish(
            activityAttributesType: activityAttributesType, activityAttributes: activityAttributes,
            lastAppliedTimestamp: lastAppliedTimestamp)
        var report = LiveActivityPayloadReport()
        swap(&report, &self.report)
        return report
    }

    /// Completes `report` in place with what the activity decides (the arguments as `takeFinishedReport`'s); once
    /// only. The simulated device calls it under its lock and reads the report where it is (no copy of its payload
    /// and warnings, nor a move of the whole report).
    mutating func finish(
        activityAttributesType: String?, activityAttributes: JSONValue?, lastAppliedTimestamp: Double?
    ) {
        // Nil once finished, and when the body has no readable event (then the report is complete, with no
        // payload or with one that has no event).
        var taken: Pending?
        swap(&taken, &pending)
        guard let pending = taken else { return }
        if let raw = pending.rawTimestamp, let timestamp = pending.timestamp,
           let warning = LiveActivityPayloadChecker.olderThanAppliedWarning(
               raw: raw, timestamp: timestamp, event: pending.event, last: lastAppliedTimestamp)
        {
            report.isOlderThanApplied = true
            report.warnings.insert(warning, at: pending.olderWarningIndex)
        }
        if !pending.isDecoded, let payload = report.payload {
            let context = LiveActivityCheckContext(
                now: now, schemas: schemas, activityAttributesType: activityAttributesType,
                activityAttributes: activityAttributes, lastAppliedTimestamp: lastAppliedTimestamp,
                futureTimestampTolerance: futureTimestampTolerance)
            LiveActivityPayloadChecker.checkDecoding(
                payload, event: pending.event, context: context, onlySchemaIssues: pending.onlySchemaIssues,
                into: &report)
        }
        LiveActivityPayloadChecker.checkCombinedSize(
            event: pending.event, activityAttributes: activityAttributes, bodyBound: pending.bodyBound,
            into: &report)
    }

    /// Whether this was prepared with `configuration`'s schemas and tolerance, at `now`: then `finish` gives what
    /// `LiveActivityPayloadChecker.check` would now (the configuration may have changed since).
    func wasPrepared(for configuration: LiveActivityConfiguration, now: Timestamp) -> Bool {
        self.now == now && schemas == configuration.schemas
            && futureTimestampTolerance == configuration.futureTimestampTolerance
    }

    private static func eventText(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return value.compactText
    }
}
