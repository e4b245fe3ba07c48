
/// The device's rules for one push, in order: readable payload → (start) alert, type, attributes, content-state →
/// (update/end) activity behind the token, priority-10 budget, already ended, older timestamp, content-state →
/// apply. Sources: A-LA, A-LAUPD, A-LADISP (A-GEN, A-JSONDEC, A-LA).
extension LiveActivityDeviceState {
    func decide(
        _ push: LiveActivityPush, report: LiveActivityPayloadReport, record: inout TokenRecord, now: Timestamp
    ) -> Decision {
        guard let payload = report.payload, let event = payload.event else {
            let reason = report.warnings.first { Self.readabilityCodes.contains($0.code) }?.message
                ?? "the payload is unreadable"
            return Decision(outcome: .droppedInvalidPayload, explanation: "dropped: \(reason)")
        }
        if event == .start {
            return start(payload, report: report, record: &record, now: now)
        }
        return updateOrEnd(push, event: event, payload: payload, report: report, record: &record, now: now)
    }

    /// The warnings that say why a payload is unreadable.
    private static let readabilityCodes: Set<String> = [
        LiveActivityWarningCode.payloadNotJSON.rawValue, LiveActivityWarningCode.apsMissing.rawValue,
        LiveActivityWarningCode.eventMissing.rawValue, LiveActivityWarningCode.eventInvalid.rawValue,
    ]

    // MARK: start

    private func start(
        _ payload: LiveActivityPayload, report: LiveActivityPayloadReport, record: inout TokenRecord, now: Timestamp
    ) -> Decision {
        if !payload.hasAlert {
            return Decision(outcome: .droppedStartWithoutAlert, explanation:
                "dropped: a push-to-start without aps.alert is silently discarded by the device; add an alert")
        }
        guard let typeName = payload.attributesType else {
            return Decision(outcome: .droppedUnknownAttributesType, explanation:
                "dropped: the start has no aps.attributes-type, so the device does not know which activity to create")
        }
        if !configuration.schemas.isEmpty, report.schema == nil {
            return Decision(outcome: .droppedUnknownAttributesType, explanation:
                "dropped: the app has no ActivityAttributes type named \"\(typeName)\" (known: "
                    + "\(configuration.schemas.map(\.attributesType).joined(separator: ", ")))")
        }
        guard let attributes = payload.attributes else {
            return Decision(outcome: .droppedUndecodableAttributes, explanation:
                "dropped: the start has no aps.attributes, so \(typeName) cannot be decoded")
        }
        if let failure = report.attributesFailure {
            return Decision(outcome: .droppedUndecodableAttributes, explanation:
                "dropped: attributes do not decode as \(typeName): \(failure.message)")
        }
        guard let contentState = payload.contentState else {
            return Decision(outcome: .droppedUndecodableContentState, explanation:
                "dropped: the start has no aps.content-state, so the activity has no initial state")
        }
        if let failure = report.contentStateFailure {
            return Decision(outcome: .droppedUndecodableContentState, explanation:
                "dropped: content-state does not decode: \(failure.message)")
        }
        var activity = StoredActivity(
            deviceToken: record.activity.deviceToken, role: .activity, topic: record.activity.topic)
        activity.attributesType = report.schema?.attributesType ?? typeName
        activity.attributes = attributes
        activity.contentState = contentState
        activity.startSeen = true
        activity.startedAt = now
        activity.lastAppliedTimestamp = payload.timestamp
        activity.relevanceScore = payload.relevanceScore
        setStaleDate(payload.staleDate, on: &activity, now: now)
        let checked = report.schema == nil ? " (not checked: no schema configured)" : ""
        guard configuration.issuesUpdateTokens else {
            activity.issuedUpdateTokens = record.activity.issuedUpdateTokens
            record.activity = activity
            return Decision(outcome: .applied, explanation:
                "applied: started a \(typeName) activity\(checked); send updates to this same token")
        }
        let token = makeUpdateToken().lowercased()
        activity.deviceToken = token
        activity.startedByPushToStartToken = record.activity.deviceToken
        record.activity.role = .pushToStart
        record.activity.issuedUpdateTokens.append(token)
        return Decision(
            outcome: .applied,
            explanation: "applied: started a \(typeName) activity\(checked); the device issued its update token "
                + "\(token) (pushTokenUpdates): send update and end pushes there, not to the push-to-start token",
            startedActivity: TokenRecord(activity: activity))
    }

    // MARK: update and end

    private func updateOrEnd(
        _ push: LiveActivityPush, event: LiveActivityEvent, payload: LiveActivityPayload,
        report: LiveActivityPayloadReport, record: inout TokenRecord, now: Timestamp
    ) -> Decision {
        if record.activity.role == .pushToStart {
            let issued = record.activity.issuedUpdateTokens.last.map { " (latest: \($0))" } ?? ""
            return Decision(outcome: .ignoredNoActivity, explanation:
                "ignored: this is a push-to-start token; no activity is bound to it. Send \(event.rawValue) to the "
                    + "activity's own update token\(issued)")
        }
        // A token with no activity yet shows one the app started (adopted).
        let adopting = record.activity.state == nil
        if adopting {
            record.activity.state = .active
            record.activity.startedAt = now
            record.activity.attributesType = report.schema?.attributesType
        }
        var applied = false
        let decision = judge(
            push, event: event, payload: payload, report: report, record: &record, now: now, applied: &applied)
        // The adoption note is written only when it stays: applying the push clears the note (before anything
        // else it writes), so it was never worth its date text there.
        if adopting && !applied {
            record.activity.stateNote = "adopted: the app started this activity; the mock first saw it at "
                + UTCDateText.format(now)
        }
        return decision
    }

    /// The rules of an update or end once the token shows an activity; `applied` says whether it was applied.
    private func judge(
        _ push: LiveActivityPush, event: LiveActivityEvent, payload: LiveActivityPayload,
        report: LiveActivityPayloadReport, record: inout TokenRecord, now: Timestamp, applied: inout Bool
    ) -> Decision {
        if let throttled = spendBudget(push, record: &record, now: now) { return throttled }
        if let phase = record.activity.state, phase == .ended || phase == .dismissed {
            let note = record.activity.stateNote.map { " (\($0))" } ?? ""
            return Decision(outcome: .ignoredAlreadyEnded, explanation:
                "ignored: the activity is already \(phase.rawValue)\(note); pushes after the end are ignored. Start a new "
                    + "activity and use its token")
        }
        if event == .update, report.isOlderThanApplied {
            return Decision(outcome: .ignoredOlderTimestamp, explanation:
                "ignored: aps.timestamp \(payload.timestamp.map(LiveActivityPayloadChecker.formatted) ?? "?") is older "
                    + "than the last applied update (\(record.activity.lastAppliedTimestamp.map(LiveActivityPayloadChecker.formatted) ?? "?")); "
                    + Self.olderTimestampAdvice(lastApplied: record.activity.lastAppliedTimestamp))
        }
        if event == .update, payload.contentState == nil {
            return Decision(outcome: .droppedUndecodableContentState, explanation:
                "dropped: the update has no aps.content-state")
        }
        if let failure = report.contentStateFailure {
            return Decision(outcome: .droppedUndecodableContentState, explanation:
                "dropped: content-state does not decode: \(failure.message)")
        }
        applied = true
        return apply(event: event, payload: payload, report: report, record: &record, now: now)
    }

    /// Priority-10 pushes count against a per-hour budget; priority 5 never does. Over budget → throttled (and
    /// not counted). Source: A-LA, [DTS] F-747624, F-797554 (A-LA).
    private func spendBudget(_ push: LiveActivityPush, record: inout TokenRecord, now: Timestamp) -> Decision? {
        guard push.priority == 10 else { return nil }
        let hourAgo = now.adding(seconds: -3600)
        record.priority10Deliveries.removeAll { $0 <= hourAgo }
        let budget = configuration.effectiveBudgetPerHour
        guard record.priority10Deliveries.count < budget else {
            let key = configuration.supportsFrequentUpdates ? "on" : "off"
            return Decision(outcome: .throttled, explanation:
                "throttled: \(record.priority10Deliveries.count) priority-10 pushes in the last hour already used the "
                    + "budget of \(budget)/h (NSSupportsLiveActivitiesFrequentUpdates \(key)); send routine updates "
                    + "with apns-priority 5 and keep 10 for updates the user must see now")
        }
        record.priority10Deliveries.append(now)
        return nil
    }

    private func apply(
        event: LiveActivityEvent, payload: LiveActivityPayload, report: LiveActivityPayloadReport,
        record: inout TokenRecord, now: Timestamp
    ) -> Decision {
        if let contentState = payload.contentState { record.activity.contentState = contentState }
        if let timestamp = payload.timestamp {
            record.activity.lastAppliedTimestamp = max(record.activity.lastAppliedTimestamp ?? timestamp, timestamp)
        }
        if let score = payload.relevanceScore { record.activity.relevanceScore = score }
        let note = report.schemaNote.map { " (\($0))" } ?? ""
        if event == .update {
            record.activity.stateNote = nil
            setStaleDate(payload.staleDate, on: &record.activity, now: now)
            // A literal, not a new string per push, in the common case: every timeline entry and record shares it.
            return Decision(outcome: .applied, explanation: note.isEmpty
                ? "applied: content-state updated" : "applied: content-state updated\(note)")
        }
        record.activity.state = .ended
        record.activity.endedAt = now
        record.activity.stateNote = nil
        if let stale = payload.staleDate { record.activity.staleDate = Timestamp(secondsSinceEpoch: stale) }
        let latest = min(
            now.adding(seconds: configuration.endedDisplayDuration),
            (record.activity.startedAt ?? now).adding(seconds: configuration.totalLifetime))
        guard let dismissal = payload.dismissalDate.map({ Timestamp(secondsSinceEpoch: $0) }) else {
            record.activity.dismissAt = latest
            return Decision(outcome: .applied, explanation:
                "applied: activity ended\(note); it stays on the Lock Screen until \(UTCDateText.format(latest)) "
                    + "(the default, up to 4 h)")
        }
        if dismissal <= now {
            record.activity.state = .dismissed
            record.activity.dismissAt = now
            return Decision(outcome: .dismissed, explanation:
                "dismissed: activity ended and removed at once because dismissal-date is not in the future\(note)")
        }
        record.activity.dismissAt = min(dismissal, latest)
        return Decision(outcome: .applied, explanation:
            "applied: activity ended\(note); removed from the Lock Screen at \(UTCDateText.format(min(dismissal, latest)))")
    }

    /// `stale-date` replaces the previous one (absent clears it); a past one makes the activity stale at once.
    private func setStaleDate(_ seconds: Double?, on activity: inout StoredActivity, now: Timestamp) {
        activity.staleDate = seconds.map { Timestamp(secondsSinceEpoch: $0) }
        if let stale = activity.staleDate, stale <= now {
            activity.state = .stale
            activity.stateNote = "stale at once: its stale-date \(UTCDateText.format(stale)) is past"
        } else {
            activity.state = .active
        }
    }
}
