import APNSJSON

/// What the simulated device works out from a push alone, before it takes its lock: the token as its table keys it,
/// the `apns-id` as the timeline keeps it, and the payload check up to what the activity decides. Under the lock
/// only the activity's state is read and changed. Not copyable, as its check.
struct PreparedPush: ~Copyable, Sendable {
    /// The device token in lower case (`LiveActivityDeviceState.lowercasedToken`) and its hash.
    let key: TokenKey
    let apnsID: CompactAPNsID
    var check: PreparedPayloadCheck
    /// The content-state the push's activity showed before it (another reference to it), set under the device's
    /// lock: an applied update replaces that value there, and the last reference, freed with its members, is then
    /// this one, dropped after the lock is released (freeing it under the lock was a tenth of the time held).
    // `Optional<…>`, not `T?` (an init that sets a `T?` copies the whole value once more).
    var previousContentState: Optional<JSONValue>

    init(_ push: LiveActivityPush, now: Timestamp, schemas: [ActivitySchema], futureTimestampTolerance: Double) {
        key = TokenKey(pushed: push.deviceToken)
        apnsID = CompactAPNsID(push.apnsID, bits: push.apnsIDBits)
        check = PreparedPayloadCheck(
            payload: push.payload, parsed: push.parsedPayload, now: now, schemas: schemas,
            futureTimestampTolerance: futureTimestampTolerance)
        previousContentState = nil
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
