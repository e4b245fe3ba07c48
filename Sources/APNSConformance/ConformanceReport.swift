import Foundation

/// Everything a run produced, for the terminal, JSON, JUnit and HTML renderers.
package struct ConformanceReport: Sendable {
    /// `apns-mock check` or `conformance sender (adapter: curl)`.
    package var title: String
    package var command: [String]
    package var commandExitStatus: Int32?
    package var results: [RuleResult]
    package var requests: [ObservedRequest]
    /// What fails the run; `results` already carry its severities (`GradingPolicy.apply`).
    package var policy: GradingPolicy
    package var injected: [String]
    /// The sender-side cross-checks, one per scenario whose adapter said what each push came to (sender mode).
    package var crossChecks: [SenderCrossCheck] = []

    package init(
        title: String, command: [String], commandExitStatus: Int32?, results: [RuleResult], requests: [ObservedRequest],
        strict: Bool = false, policy: GradingPolicy = GradingPolicy(), injected: [String] = []
    ) {
        self.title = title
        self.command = command
        self.commandExitStatus = commandExitStatus
        self.results = results
        self.requests = requests
        self.policy = policy
        self.policy.failOnWarnings = policy.failOnWarnings || strict
        self.injected = injected
    }

    /// Warnings fail the run (`--fail-on warn`, `--strict`).
    package var strict: Bool { policy.failOnWarnings }
    package var summary: GradeSummary { GradeSummary(results) }
    package var commandFailed: Bool { (commandExitStatus ?? 0) != 0 }
    /// 0 when no rule fails the run and the command succeeded, 1 otherwise.
    package var exitStatus: Int32 { failedRuleNames.isEmpty && !commandFailed ? 0 : 1 }

    package func request(_ id: Int64) -> ObservedRequest? { requests.first { $0.id == id } }

    /// Whether this result fails the run: a failure not expected, a warning under `--fail-on warn`, an expected
    /// failure that did not fail.
    package func isFailure(_ result: RuleResult) -> Bool { policy.fails(result) }

    /// Whether this finding counts against the run (its verdict would fail the rule's run).
    func isFailing(_ verdict: Verdict) -> Bool { verdict == .fail || (strict && verdict == .warn) }

    package var headline: String {
        let s = summary
        var line = "\(s.passed) passed, \(s.warned) warned, \(s.failed) failed, \(s.notApplicable) not applicable; \(plural(requests.count, "request"))"
        let expected = results.filter { $0.expectedToFail && $0.verdict == .fail }.count
        if expected > 0 { line += "; \(expected) of the failures expected (--expect-fail)" }
        if let status = commandExitStatus, status != 0 { line += "; the command exited with status \(status)" }
        return line
    }
}

extension ConformanceReport {
    // MARK: terminal

    package func terminalText() -> String {
        var out = "\(title): \(command.joined(separator: " "))\n"
        if !injected.isEmpty { out += "injected: \(injected.joined(separator: ", "))\n" }
        let width = max(22, results.map(\.rule.id.count).max() ?? 0)
        for result in results {
            let mark = switch result.verdict {
            case .pass: "PASS"
            case .warn: "WARN"
            case .fail: "FAIL"
            case .notApplicable: " n/a"
            }
            out += "\(mark)  \(result.rule.id.padding(toLength: width, withPad: " ", startingAt: 0)) \(result.rule.title) — \(result.summary)\n"
            if let note = result.note { out += "        (\(note))\n" }
            if result.expectedToFail {
                out += result.verdict == .fail ? "        (expected to fail: does not fail the run)\n" : "        fail: expected to fail (--expect-fail), but it did not\n"
            }
            for finding in result.findings {
                out += "        \(finding.verdict.rawValue): \(finding.message)"
                if !finding.requestIDs.isEmpty { out += " [request \(finding.requestIDs.map { "#\($0)" }.joined(separator: ", "))]" }
                out += "\n"
            }
        }
        out += headline + "\n"
        if commandFailed { out += "FAILED: the command itself failed (exit status \(commandExitStatus!))\n" }
        for crossCheck in crossChecks { out += crossCheck.terminalText() }
        out += exitStatus == 0 ? "OK: every rule holds\n" : (failedRuleNames.isEmpty ? "" : "FAILED: \(failedRuleNames.joined(separator: ", "))\n")
        return out
    }

    package var failedRuleNames: [String] { results.filter(isFailure).map(\.rule.id) }
    package var warnedRuleNames: [String] { results.filter { $0.verdict == .warn }.map(\.rule.id) }

    // MARK: JSON

    /// The report as `--json` writes it.
    struct Document: Encodable {
        struct Summary: Encodable { var passed, warned, failed, notApplicable: Int }
        struct Finding: Encodable {
            var verdict, message: String
            var requests: [Int64]
        }
        struct Rule: Encodable {
            var id, title: String
            var sources: [String]
            var requirement, verdict, summary: String
            /// Whether this rule fails the run (a warning does under failOn warn; an expected failure does not).
            var failsRun: Bool
            var expectedToFail: Bool
            var note: String?
            var findings: [Finding]
        }
        struct Request: Encodable {
            struct Header: Encodable { var name, value: String }
            var id, connectionId, receivedAtNanos, latencyMicroseconds: Int64
            var method, path: String
            var headers: [Header]
            var status: Int
            var curl: String
            var payload, reason, explanation, liveActivity, injected: String?
        }
        var title: String
        var command: [String]
        var result: String
        var exitStatus: Int32
        var commandExitStatus: Int32?
        var strict: Bool
        var failOn: String
        var injected: [String]
        var requestCount: Int
        var summary: Summary
        var failedRules, warnedRules: [String]
        var rules: [Rule]
        var requests: [Request]
        var crossChecks: [SenderCrossCheck]
    }

    var document: Document {
        let s = summary
        var referenced: [Int64] = []
        for result in results { for finding in result.findings { referenced += finding.requestIDs } }
        var seen: Set<Int64> = []
        return Document(
            title: title, command: command, result: exitStatus == 0 ? "pass" : "fail", exitStatus: exitStatus,
            commandExitStatus: commandExitStatus, strict: strict, failOn: strict ? "warn" : "fail", injected: injected,
            requestCount: requests.count,
            summary: .init(passed: s.passed, warned: s.warned, failed: s.failed, notApplicable: s.notApplicable),
            failedRules: failedRuleNames, warnedRules: warnedRuleNames,
            rules: results.map { result in
                Document.Rule(
                    id: result.rule.id, title: result.rule.title, sources: result.rule.sources,
                    requirement: result.rule.requirement, verdict: result.verdict.rawValue, summary: result.summary,
                    failsRun: isFailure(result), expectedToFail: result.expectedToFail, note: result.note,
                    findings: result.findings.map {
                        Document.Finding(verdict: $0.verdict.rawValue, message: $0.message, requests: $0.requestIDs)
                    })
            },
            requests: referenced.filter { seen.insert($0).inserted }.compactMap(request).map(Self.requestDocument),
            crossChecks: crossChecks)
    }

    static func requestDocument(_ request: ObservedRequest) -> Document.Request {
        Document.Request(
            id: request.id, connectionId: request.connectionID, receivedAtNanos: request.receivedAtNanos,
            latencyMicroseconds: request.latencyMicroseconds, method: request.method, path: request.path,
            headers: request.headers.map { .init(name: $0.name, value: $0.value) }, status: request.status,
            curl: CurlLine.reproduce(request), payload: request.payload, reason: request.reason,
            explanation: request.explanation, liveActivity: request.liveActivityOutcome, injected: request.injectedFault)
    }

    package func jsonText() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = (try? encoder.encode(document)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
