import APNSJSON

/// The answer to one device push, and what was found out on the way. The case says who answered and how, so the
/// HTTP status, APNs' `reason` and the `reason` string on the wire follow from it and cannot disagree:
///
/// - `accepted`: 200, no body (A-RESP);
/// - `rejected`: APNs' rejection; status and body `reason` are `Reason`'s, the timestamp only on 410 (A-RESP);
/// - `mockAnswer`: the mock's own answer in place of APNs': strict mode, device-strict mode or a scripted answer
///   (fault injection), labelled as such in the record;
/// - `unanswered`: no HTTP answer at all (a fault withheld it); recorded with status null.
public enum Verdict: Sendable, Hashable {
    case accepted(PushFindings)
    case rejected(APNsRejection, PushFindings)
    case mockAnswer(MockAnswer, PushFindings)
    case unanswered(PushFindings)

    /// The request facts, warnings, sender and explanation, whatever the answer.
    public var findings: PushFindings {
        // Read in place: every accessor below goes through here, and a getter would copy the whole findings (its
        // strings, arrays and payload) to hand out one field.
        _read {
            switch self {
            case .accepted(let findings), .rejected(_, let findings), .mockAnswer(_, let findings),
                .unanswered(let findings):
                yield findings
            }
        }
        set {
            switch self {
            case .accepted: self = .accepted(newValue)
            case .rejected(let rejection, _): self = .rejected(rejection, newValue)
            case .mockAnswer(let answer, _): self = .mockAnswer(answer, newValue)
            case .unanswered: self = .unanswered(newValue)
            }
        }
    }

    /// `body` applied to the findings, with one look at the case: each look at a verdict's case (every accessor
    /// below) first copies the whole verdict, so a caller that reads several fields reads them here at once.
    @inlinable
    public func readFindings<Result>(_ body: (PushFindings) -> Result) -> Result {
        body(findings)
    }

    /// Changes the findings in place: the case is taken apart (moved, not copied) and put together again. Setting
    /// one field through `findings` copied the whole findings out and back; a `_modify` accessor allocated its
    /// coroutine frame (one `malloc` per push).
    mutating func changeFindings(_ change: (inout PushFindings) -> Void) {
        switch consume self {
        case .accepted(var findings):
            change(&findings)
            self = .accepted(findings)
        case .rejected(let rejection, var findings):
            change(&findings)
            self = .rejected(rejection, findings)
        case .mockAnswer(let answer, var findings):
            change(&findings)
            self = .mockAnswer(answer, findings)
        case .unanswered(var findings):
            change(&findings)
            self = .unanswered(findings)
        }
    }

    /// HTTP status: 200, the status of the rejection's reason, the mock answer's status, or 0 when unanswered.
    public var status: Int {
        switch self {
        case .accepted: 200
        case .rejected(let rejection, _): rejection.reason.status
        case .mockAnswer(let answer, _): answer.status
        case .unanswered: 0
        }
    }

    /// APNs' reason: the rejection's, or a mock answer's when its `reason` string is one of APNs'; else nil.
    public var reason: Reason? {
        switch self {
        case .accepted, .unanswered: nil
        case .rejected(let rejection, _): rejection.reason
        case .mockAnswer(let answer, _): answer.wireReason.flatMap(Reason.init(rawValue:))
        }
    }

    /// The `reason` string in the response body; nil when there is no error body.
    public var wireReason: String? {
        switch self {
        case .accepted, .unanswered: nil
        case .rejected(let rejection, _): rejection.reason.rawValue
        case .mockAnswer(let answer, _): answer.wireReason
        }
    }

    /// Integer milliseconds since the epoch; only on 410 (A-RESP).
    public var timestamp: Int64? {
        switch self {
        case .accepted, .unanswered: nil
        case .rejected(let rejection, _): rejection.timestamp
        case .mockAnswer(let answer, _): answer.timestamp
        }
    }

    public var isAccepted: Bool { status == 200 }

    /// The answer in a few words, for explanations: `200`, or the status and the `reason` string.
    public var answerSummary: String {
        status == 200 ? "200" : "\(status) \(wireReason ?? "")"
    }

    /// True when the answer is the mock's strict mode (rules' warnings or the simulated device), not APNs'.
    public var isStrictMockAnswer: Bool {
        if case .mockAnswer(let answer, _) = self { return answer.origin.isStrict }
        return false
    }

    // The findings most call sites read.

    /// Accepted-but-probably-wrong findings, in rule order (also on rejections, from the rules that ran).
    public var warnings: [PushWarning] {
        get { findings.warnings }
        set { changeFindings { $0.warnings = newValue } }
    }
    /// Appends `more` to the warnings with one change of the findings; taken as they are when there were none (no
    /// new array). `warnings += more` read the whole findings out, copied the array to append to it, and set it.
    public mutating func appendWarnings(_ more: [PushWarning]) {
        changeFindings { findings in
            if findings.warnings.isEmpty { findings.warnings = more } else { findings.warnings += more }
        }
    }
    /// What to change, in plain words; nil on a clean 200.
    public var explanation: String? {
        get { findings.explanation }
        set { changeFindings { $0.explanation = newValue } }
    }
    /// The id of the rule that decided (`PushRule.id`, `strict.<code>`, `scripted`, `fault.<effect>`); nil on 200.
    public var ruleID: String? {
        get { findings.ruleID }
        set { changeFindings { $0.ruleID = newValue } }
    }
    public var sender: AuthenticatedSender? { findings.sender }
    public var environment: APNsEnvironment { findings.environment }
    public var payload: JSONValue? { findings.payload }
    public var facts: PushFacts { findings.facts }
    public var deviceToken: String? { findings.facts.deviceToken }
    public var topic: String? { findings.facts.topic }
    public var pushType: PushType? { findings.facts.pushType }
    /// `apns-id` exactly as sent.
    public var apnsID: String? { findings.facts.apnsID }
    public var priority: Int? { findings.facts.priority }
    public var expiration: Int64? { findings.facts.expiration }
    public var collapseID: String? { findings.facts.collapseID }
}

/// APNs' own rejection: a reason, whose status it implies, and on 410 the time the token became invalid.
public struct APNsRejection: Sendable, Hashable {
    public var reason: Reason
    /// Integer milliseconds since the epoch; kept only when `reason` answers 410 (A-RESP).
    public let timestamp: Int64?

    public init(_ reason: Reason, timestamp: Int64? = nil) {
        self.reason = reason
        self.timestamp = reason.status == 410 ? timestamp : nil
    }
}

/// The mock's own answer in place of APNs': who chose it, and the status and `reason` it sends.
public struct MockAnswer: Sendable, Hashable {
    public enum Origin: Sendable, Hashable {
        /// Strict mode turned the warning with this code into a rejection (`strict.<code>`).
        case strictMode(code: String)
        /// Device-strict mode: APNs would accept, but the simulated device would drop the push.
        case strictDevice
        /// A scripted answer (fault injection).
        case scripted

        public var isStrict: Bool {
            switch self {
            case .strictMode, .strictDevice: true
            case .scripted: false
            }
        }
    }

    public var origin: Origin
    public var status: Int
    // `Optional<…>`, not `T?`: a stored `var` of type `T?` starts as nil, so an init that sets it copied the
    // whole value once more (every field retained, then released).
    /// The `reason` in the body; nil on 200.
    public var wireReason: Optional<String>
    /// Integer milliseconds since the epoch, sent on 410 only.
    public var timestamp: Optional<Int64>

    public init(origin: Origin, status: Int, wireReason: String?, timestamp: Int64? = nil) {
        self.origin = origin
        self.status = status
        self.wireReason = status == 200 ? nil : wireReason
        self.timestamp = status == 410 ? timestamp : nil
    }
}
