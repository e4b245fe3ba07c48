import Foundation

/// What a fired fault does to one request: the pipeline's `ScriptedOutcome` (the verdict recorded and answered,
/// the connection actions that go with it, and the mark of the delivery record).
public typealias FaultOutcome = ScriptedOutcome

extension FaultRequest {
    public init(verdict: Verdict, request: HTTPRequest, requestsOnConnection: Int, now: Timestamp) {
        self.init(
            deviceToken: verdict.deviceToken, topic: verdict.topic, keyID: verdict.sender?.keyID,
            teamID: verdict.sender?.teamID, connection: request.connection.id,
            pushType: verdict.pushType?.rawValue ?? request.value("apns-push-type"),
            requestsOnConnection: requestsOnConnection, now: now)
    }
}

extension FaultFiring {
    /// Applies the fault to the rules' verdict for the request on `streamID`.
    public func outcome(for rules: Verdict, streamID: Int32, now: Timestamp) -> FaultOutcome {
        let rulesAnswer = rules.answerSummary
        var verdict = rules
        var actions: [ConnectionAction] = []
        var sendsAnything = true
        var replaces = true
        var announced: UInt32?
        let effectName: String
        var description: String

        /// No HTTP answer goes out: the record says so with status null.
        func withholdAnswer() {
            verdict = rules.withoutAnswer()
        }

        switch effect {
        case .unregistered(let since):
            effectName = "unregistered"
            verdict = rules.replaced(by: ScriptedReply(status: 410, reason: Reason.unregistered.rawValue, timestamp: since.millisecondsSinceEpoch), now: now)
            description = "answered 410 Unregistered: the token counts as unregistered since \(since.millisecondsSinceEpoch) ms"
        case .delay(let milliseconds):
            effectName = "delay"
            replaces = false
            actions.append(.delayResponse(milliseconds: milliseconds))
            description = "answer delayed by \(milliseconds) ms"
        case .action(let action):
            effectName = action.name == "status" ? "answer" : action.name
            switch action {
            case .answer(let status, let reason, let timestamp, let goAway):
                verdict = rules.replaced(by: ScriptedReply(status: status, reason: reason?.rawValue, timestamp: timestamp), now: now)
                if goAway {
                    actions.append(.goAway(errorCode: 0, debugData: Self.debugData(reason ?? .shutdown)))
                }
                description = "answered \(status)\(reason.map { " " + $0.rawValue } ?? "")" + (goAway ? ", then GOAWAY" : "")
            case .resetStream(let code):
                withholdAnswer()
                actions.append(.resetStream(errorCode: code.code))
                description = "stream reset with RST_STREAM \(code.rawValue), no answer"
            case .blackHole:
                withholdAnswer()
                sendsAnything = false
                description = "never answered (black hole)"
            case .closeConnection:
                withholdAnswer()
                actions.append(.closeConnection)
                description = "TCP connection closed without GOAWAY, no answer"
            case .maxConcurrentStreams(let value):
                replaces = false
                announced = value
                actions.append(.setMaxConcurrentStreams(value))
                description = "answered by the rules, with SETTINGS_MAX_CONCURRENT_STREAMS \(value)"
            case .goAway(let goAway):
                let debug = Self.debugData(goAway.reason)
                switch goAway.after {
                case .answer:
                    replaces = false
                    if let last = goAway.lastStreamID {
                        actions.append(.goAwayNaming(lastStreamID: last, errorCode: 0, debugData: debug, beforeResponse: false))
                    } else {
                        actions.append(.goAway(errorCode: 0, debugData: debug))
                    }
                    description = "answered by the rules, then GOAWAY {\"reason\":\"\(goAway.reason.rawValue)\"}"
                case .before:
                    let last = goAway.lastStreamID ?? max(0, streamID - 2)
                    actions.append(.goAwayNaming(lastStreamID: last, errorCode: 0, debugData: debug, beforeResponse: true))
                    if last < streamID {
                        withholdAnswer()
                        description = "GOAWAY {\"reason\":\"\(goAway.reason.rawValue)\"} with last-stream-id \(last) before the answer; stream \(streamID) not processed, no answer"
                    } else {
                        replaces = false
                        description = "GOAWAY {\"reason\":\"\(goAway.reason.rawValue)\"} with last-stream-id \(last), then the rules' answer"
                    }
                }
            case .delay, .unregisterAfter:
                description = "no change"  // handled by the other effects
            }
        }
        if replaces {
            verdict.ruleID = "fault.\(effectName)"
            verdict.explanation = "Injected fault #\(index) (\(spec.jsonText)): \(description); the rules would have answered \(rulesAnswer)."
        }
        return FaultOutcome(
            verdict: verdict, actions: actions, sendsAnything: sendsAnything, replacesAnswer: replaces,
            mark: InjectedFault(faultJSON: spec.jsonText, index: index, effect: effectName, rulesAnswer: rulesAnswer),
            announcedMaxConcurrentStreams: announced)
    }

    /// APNs' GOAWAY debug data: `{"reason":"Shutdown"}` (A-SEND).
    public static func debugData(_ reason: Reason) -> [UInt8] {
        Array((try? JSONEncoder().encode(ErrorBody(reason: reason.rawValue))) ?? Data())
    }
}
