/// An injected `delayMs` fault holds the answer back after the mock decided it; the delivery record's latency
/// ends at the decision. Connection grading (A-CONN: requests in flight, pipelining) needs the time the sender
/// actually waited, so it adds the delay read from the recorded fault spec, but only half of it: the event loop's
/// timer counts from its cached clock and may fire early by the length of a busy loop iteration, and a sequential
/// sender must not look pipelined because the grader overestimated how long an answer was held.
extension ObservedRequest {
    /// The injected delay in microseconds: `"delayMs": N`, or the `min` of `"delayMs": {"min": A, "max": B}`
    /// (a lower bound); 0 when no delay fault fired.
    var injectedDelayMicroseconds: Int64 {
        guard let fault = injectedFault, let key = fault.range(of: "\"delayMs\"") else { return 0 }
        var rest = fault[key.upperBound...].drop { $0 == ":" || $0 == " " }
        if rest.first == "{" {
            guard let minimum = rest.range(of: "\"min\"") else { return 0 }
            rest = rest[minimum.upperBound...].drop { $0 == ":" || $0 == " " }
        }
        return (Int64(String(rest.prefix { $0.isNumber })) ?? 0) * 1000
    }

    /// Receipt to the answer leaving the mock, at least: half the injected delay included.
    var waitedMicroseconds: Int64 { latencyMicroseconds + injectedDelayMicroseconds / 2 }

    /// When the answer left the mock, at the earliest.
    var answerSentAtNanos: Int64 { receivedAtNanos + waitedMicroseconds * 1000 }
}
