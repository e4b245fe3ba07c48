/// How a rule came out. Ordered: a rule's verdict is the worst of its findings.
package enum Verdict: String, Sendable, Codable, Comparable, CaseIterable {
    /// Nothing in the run could exercise the rule (no Live Activity pushes, no fault of that kind).
    case notApplicable = "n/a"
    case pass
    case warn
    case fail

    private var rank: Int {
        switch self {
        case .notApplicable: 0
        case .pass: 1
        case .warn: 2
        case .fail: 3
        }
    }

    package static func < (lhs: Verdict, rhs: Verdict) -> Bool { lhs.rank < rhs.rank }
}

/// One observation behind a verdict: a sentence and the requests it rests on.
package struct Finding: Sendable, Equatable {
    package var verdict: Verdict
    package var message: String
    /// Delivery ids (the admin API's `id`) of the requests this finding points at, first the one that matters most.
    package var requestIDs: [Int64]

    package init(_ verdict: Verdict, _ message: String, requests: [Int64] = []) {
        self.verdict = verdict
        self.message = message
        self.requestIDs = requests
    }
}

/// A rule applied to a run.
package struct RuleResult: Sendable, Equatable {
    package var rule: ConformanceRule
    package var verdict: Verdict
    /// What was checked, e.g. "12 requests on 1 connection".
    package var summary: String
    /// Warnings and failures (passes are summarised, not listed).
    package var findings: [Finding]
    /// Named by the user as expected to fail (`--expect-fail`): it fails the run only when it does not fail.
    package var expectedToFail = false
    /// What the user's grading policy changed, if anything ("demoted to warn by --severity").
    package var note: String?

    package init(rule: ConformanceRule, summary: String, findings: [Finding]) {
        self.rule = rule
        self.summary = summary
        self.findings = findings
        verdict = findings.map(\.verdict).max() ?? .pass
    }

    package static func notApplicable(_ rule: ConformanceRule, _ why: String) -> RuleResult {
        var result = RuleResult(rule: rule, summary: why, findings: [])
        result.verdict = .notApplicable
        return result
    }
}
