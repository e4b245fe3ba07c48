import Foundation

/// The decision for one device push, from request to response, without I/O. Stages, in order:
///
/// 1. the rules (`PushValidator.evaluateRules`, authentication included);
/// 2. fault injection: a fault may replace the rules' answer (then every later stage but the stream limit is
///    skipped), delay it, withhold it, or add connection actions (GOAWAY, RST_STREAM, a SETTINGS change);
/// 3. for an accepted `liveactivity` push, the simulated device's payload check, whose `la-*` warnings join the
///    rules' warnings;
/// 4. strict mode over every warning (rules', token's, device's): the first strict code rejects, and the device
///    never sees the push;
/// 5. the device applies the push; in device-strict mode a push it drops is answered with a `MockDevice…` reason;
/// 6. the stream limit: raised once, after the connection's first valid provider token (A-SEND, A-CONN);
/// 7. the response (A-RESP) and the record draft.
///
/// Time and ids are inputs, so a test can replay any push.
public struct PushPipeline: Sendable {
    public let validator: PushValidator
    /// The simulated Live Activity device; nil leaves Live Activity pushes to the rules alone.
    public let device: LiveActivityDevice?
    /// Answer device-level drops with HTTP 400 and a mock-specific reason (NOT APNs behaviour).
    public let strictDevice: Bool
    /// A new `apns-id` for requests without one (APNs: an upper-case UUID).
    public let newApnsID: @Sendable () -> String
    /// A new `apns-unique-id` (development environment only).
    public let newUniqueID: @Sendable () -> String
    /// Whether the ids are the default random UUIDs (no generator given): then `decide` makes them with their bits
    /// (`RandomUUID.makeWithBits`), which the record keeps, so the store does not read the texts back.
    private let makesRandomIDs: (apnsID: Bool, uniqueID: Bool)

    /// `newApnsID`, `newUniqueID`: nil for random UUIDs (`ApnsID.resolve(requestValue: nil)`,
    /// `ApnsID.newUniqueID`).
    public init(
        validator: PushValidator, device: LiveActivityDevice? = nil, strictDevice: Bool = false,
        newApnsID: (@Sendable () -> String)? = nil, newUniqueID: (@Sendable () -> String)? = nil
    ) {
        self.validator = validator
        self.device = device
        self.strictDevice = strictDevice
        self.newApnsID = newApnsID ?? { ApnsID.resolve(requestValue: nil) }
        self.newUniqueID = newUniqueID ?? ApnsID.newUniqueID
        makesRandomIDs = (newApnsID == nil, newUniqueID == nil)
    }

    /// Runs every stage for `request` on a connection in `connection` state, at `now`.
    public func decide(
        _ request: HTTPRequest, connection: inout PushConnectionState,
        authenticator: (any ConnectionAuthenticator)?, scripts: some ScriptedOutcomeSource, now: Timestamp
    ) -> PushDecision {
        var verdict = validator.evaluateRules(request, authenticator: authenticator, now: now)
        var actions: [ConnectionAction] = []
        // `apns-id` as sent (the rules read it once, `PushFacts.apnsID`), the environment and the accepted push
        // type with one look at the verdict's case (each look copies the whole verdict first). Neither strict mode
        // nor the device changes the environment or the push type; a fault's verdict is looked at again.
        let facts = verdict.pipelineFacts
        // A generated id comes with its bits (`makesRandomIDs`).
        let apnsID: String
        var apnsIDBits: CanonicalUUID.Bits?
        if let sent = facts.apnsID, !sent.isEmpty {
            apnsID = sent
        } else if makesRandomIDs.apnsID {
            (apnsID, apnsIDBits) = RandomUUID.makeWithBits(uppercase: true)
        } else {
            apnsID = newApnsID()
        }
        var environment = facts.environment
        var acceptedPushType = facts.acceptedPushType
        var liveActivity: LiveActivityDeviceOutcome?

        let requestNumber = connection.countRequest()
        // What the fault decides is taken out of it once (its optional, which holds a whole verdict, is not read
        // again field by field).
        var faultReplacesAnswer = false
        var sendsResponse = true
        var injected: InjectedFault?
        if let fault = scripts.scriptedOutcome(
            for: request, verdict: verdict, requestsOnConnection: requestNumber, now: now)
        {
            verdict = fault.verdict
            (_, environment, acceptedPushType) = verdict.pipelineFacts
            actions = fault.actions
            if let limit = fault.announcedMaxConcurrentStreams { connection.announceFromFault(limit) }
            faultReplacesAnswer = fault.replacesAnswer
            sendsResponse = fault.sendsAnything
            injected = fault.mark
        }
        if faultReplacesAnswer {
            // The fault's answer stands: no device, no strict mode.
        } else if acceptedPushType == .liveactivity, let device {
            liveActivity = deliver(
                request, verdict: &verdict, to: device, apnsID: apnsID, apnsIDBits: apnsIDBits, now: now)
        } else {
            validator.applyStrictMode(to: &verdict)
        }

        if let goAway = Self.certificateRefusalAction(for: verdict, faultReplacesAnswer: faultReplacesAnswer) {
            actions.append(goAway)
        }
        if let change = connection.streamLimitChange(hasAuthenticated: authenticator?.hasAuthenticated ?? false) {
            actions.append(change)
        }
        var uniqueID: String?
        var uniqueIDBits: CanonicalUUID.Bits?
        if environment == .development {
            if makesRandomIDs.uniqueID {
                (uniqueID, uniqueIDBits) = RandomUUID.makeWithBits(uppercase: false)
            } else {
                uniqueID = newUniqueID()
            }
        }
        let response = verdict.response(apnsID: apnsID, uniqueID: uniqueID)
        return PushDecision(
            response: response, actions: actions,
            record: DeliveryDraft(
                verdict: consume verdict, apnsID: apnsID, uniqueID: uniqueID, liveActivity: liveActivity,
                injected: injected, apnsIDBits: apnsIDBits, uniqueIDBits: uniqueIDBits),
            sendsResponse: sendsResponse)
    }

    /// Stages 3–5 for an accepted Live Activity push: the device's warnings, strict mode over all warnings, then
    /// the device applies the push unless strict mode refused it. The verdict is changed in place (a copy in and
    /// out moved and retained every field of it).
    private func deliver(
        _ request: HTTPRequest, verdict: inout Verdict, to device: LiveActivityDevice, apnsID: String,
        apnsIDBits: CanonicalUUID.Bits?, now: Timestamp
    ) -> LiveActivityDeviceOutcome? {
        // The findings read with one look at the verdict's case (each look copies the whole verdict first).
        let (push, rulesAdmit) = verdict.readFindings { findings in
            (
                LiveActivityPush(
                    deviceToken: findings.facts.deviceToken ?? "", topic: findings.facts.topic ?? "",
                    priority: findings.facts.priority ?? 10, apnsID: apnsID, payload: request.body,
                    parsedPayload: findings.payload, apnsIDBits: apnsIDBits),
                // Strict mode over the rules' warnings and then the device's: the same first match as over both
                // joined, without joining them (the closure below runs under the device's lock).
                validator.strictRejection(for: findings.warnings) == nil
            )
        }
        let reception = device.receive(push, now: now) { deviceWarnings in
            rulesAdmit && validator.strictRejection(for: deviceWarnings) == nil
        }
        // Appended only when there are some.
        let deviceWarnings = reception.warnings
        if !deviceWarnings.isEmpty { verdict.appendWarnings(deviceWarnings) }
        guard case .received(let result) = reception else {
            validator.applyStrictMode(to: &verdict)
            return nil
        }
        var explanation = result.explanation
        if let issued = result.issuedUpdateToken {
            explanation += " The device issued the update token \(issued) for this activity."
        }
        if strictDevice, result.isDeviceDrop, let reason = result.mockStrictReason {
            verdict = verdict.strictDeviceRejection(wireReason: reason, explanation: explanation)
        }
        return LiveActivityDeviceOutcome(code: result.outcome.rawValue, explanation: explanation)
    }

    /// GOAWAY debug data as APNs sends it: `{"reason":"…"}` (A-SEND), `Shutdown` when the script names none.
    static func goAwayDebugData(reason: String?) -> [UInt8] {
        Array((try? JSONEncoder().encode(ErrorBody(reason: reason ?? "Shutdown"))) ?? Data())
    }
}

extension Verdict {
    /// `apns-id` as sent, the environment, and the push type of an accepted verdict (`isAccepted`, nil otherwise):
    /// one look at the case instead of three (each look copies the whole verdict first).
    fileprivate var pipelineFacts: (apnsID: String?, environment: APNsEnvironment, acceptedPushType: PushType?) {
        switch self {
        case .accepted(let findings):
            (findings.facts.apnsID, findings.environment, findings.facts.pushType)
        case .rejected(let rejection, let findings):
            (
                findings.facts.apnsID, findings.environment,
                rejection.reason.status == 200 ? findings.facts.pushType : nil
            )
        case .mockAnswer(let answer, let findings):
            (findings.facts.apnsID, findings.environment, answer.status == 200 ? findings.facts.pushType : nil)
        case .unanswered(let findings):
            (findings.facts.apnsID, findings.environment, nil)
        }
    }
}
