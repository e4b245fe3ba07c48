import APNSCore

/// What the simulated device works out from a push alone, before it takes its lock: the token as its table keys it,
/// the `apns-id` as the timeline keeps it, and the payload check up to what the activity decides. Under the lock
/// only the activity's state is read and changed. Not copyable, as its check.
struct PreparedPush: ~Copyable, Sendable {
    /// The device token in lower case (`LiveActivityDeviceState.lowercasedToken`) and its hash.
    let key: TokenKey
    let apnsID: CompactAPNsID
    var check: PreparedPayloadCheck

    init(_ push: LiveActivityPush, now: Timestamp, schemas: [ActivitySchema], futureTimestampTolerance: Double) {
        key = TokenKey(pushed: push.deviceToken)
        apnsID = CompactAPNsID(push.apnsID)
        check = PreparedPayloadCheck(
            payload: push.payload, parsed: push.parsedPayload, now: now, schemas: schemas,
            futureTimestampTolerance: futureTimestampTolerance)
    }

    init(_ push: LiveActivityPush, now: Timestamp, configuration: LiveActivityConfiguration) {
        self.init(
            push, now: now, schemas: configuration.schemas,
            futureTimestampTolerance: configuration.futureTimestampTolerance)
    }
}

extension PreparedPayloadCheck {
    /// The check's first step for `push` (its payload as the push rules parsed it) under `configuration`.
    init(_ push: LiveActivityPush, now: Timestamp, configuration: LiveActivityConfiguration) {
        self.init(
            payload: push.payload, parsed: push.parsedPayload, now: now, schemas: configuration.schemas,
            futureTimestampTolerance: configuration.futureTimestampTolerance)
    }
}
