extension LiveActivityDeviceState {
    /// What to do about an update ignored as older than the last applied one. When the applied timestamp is in
    /// milliseconds, no update in seconds can ever be newer for this activity, so "send seconds" is not enough: the
    /// activity has to be ended (`end` is not compared with the stored timestamp) and a new one started (A-LAUPD).
    static func olderTimestampAdvice(lastApplied: Double?) -> String {
        guard let lastApplied, lastApplied >= LiveActivityPayloadChecker.millisecondThreshold else {
            return "send the current time in seconds"
        }
        return "the applied timestamp \(LiveActivityPayloadChecker.formatted(lastApplied)) is in milliseconds, so every "
            + "update in seconds is older and this activity will ignore them all. Sending seconds now does not fix it: "
            + "end this activity (an end push, or end it in the app), start a new one, and send aps.timestamp in "
            + "seconds from then on"
    }
}
