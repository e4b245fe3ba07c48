import Foundation

/// Everything a run produced, for the terminal, JSON, JUnit and HTML renderers.
public struct ConformanceReport: Sendable {
    /// `apns-mock check` or `conformance sender (adapter: curl)`.
    public var title: String
    public var command: [String]
    public var commandExitStatus: Int32?
    public var results: [RuleResult]
    public var requests: [ObservedRequest]
    public var strict: Bool
    public var injected: [String]

    public init(title: String, command: [String], commandExitStatus: Int32?, results: [RuleResult], requests: [ObservedRequest], strict: Bool, injected: [String] = []) {
        self.title = title
        self.command = command
        self.commandExitStatus = commandExitStatus
        self.results = results
        self.requests = requests
        self.strict = strict
        self.injected = injected
    }

    public var summary: GradeSummary { GradeSummary(results) }
    public var commandFailed: Bool { (commandExitStatus ?? 0) != 0 }
    /// 0 when every rule holds and the command succeeded, 1 otherwise.
    public var exitStatus: Int32 { summary.holds(strict: strict) && !commandFailed ? 0 : 1 }

    public func request(_ id: Int64) -> ObservedRequest? { requests.first { $0.id == id } }

    /// Whether this verdict fails the run (warnings do under `--strict`).
    public func isFailure(_ verdict: Verdict) -> Bool { verdict == .fail || (strict && verdict == .warn) }

    public var headline: String {
        let s = summary
        var line = "\(s.passed) passed, \(s.warned) warned, \(s.failed) failed, \(s.notApplicable) not applicable; \(plural(requests.count, "request"))"
        if let status = commandExitStatus, status != 0 { line += "; the command exited with status \(status)" }
        return line
    }
}

extension ConformanceReport {
    // MARK: terminal

    public func terminalText() -> String {
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
            for finding in result.findings {
                out += "        \(finding.verdict.rawValue): \(finding.message)"
                if !finding.requestIDs.isEmpty { out += " [request \(finding.requestIDs.map { "#\($0)" }.joined(separator: ", "))]" }
                out += "\n"
            }
        }
        out += headline + "\n"
        if commandFailed { out += "FAILED: the command itself failed (exit status \(commandExitStatus!))\n" }
        out += exitStatus == 0 ? "OK: every rule holds\n" : (summary.holds(strict: strict) ? "" : "FAILED: \(failedRuleNames.joined(separator: ", "))\n")
        return out
    }

    public var failedRuleNames: [String] { results.filter { isFailure($0.verdict) }.map(\.rule.id) }

    // MARK: JSON

    public func jsonObject() -> [String: Any] {
        let s = summary
        var referenced: [Int64] = []
        for result in results { for finding in result.findings { referenced += finding.requestIDs } }
        var seen: Set<Int64> = []
        let evidence: [[String: Any]] = referenced.filter { seen.insert($0).inserted }.compactMap(request).map(Self.requestJSON)
        var object: [String: Any] = [
            "title": title, "command": command, "result": exitStatus == 0 ? "pass" : "fail", "exitStatus": Int(exitStatus),
            "strict": strict, "injected": injected, "requestCount": requests.count,
            "summary": ["passed": s.passed, "warned": s.warned, "failed": s.failed, "notApplicable": s.notApplicable],
            "rules": results.map { result -> [String: Any] in
                [
                    "id": result.rule.id, "title": result.rule.title, "sources": result.rule.sources,
                    "requirement": result.rule.requirement, "verdict": result.verdict.rawValue, "summary": result.summary,
                    "findings": result.findings.map { ["verdict": $0.verdict.rawValue, "message": $0.message, "requests": $0.requestIDs.map { Int($0) }] },
                ]
            },
            "requests": evidence,
        ]
        if let status = commandExitStatus { object["commandExitStatus"] = Int(status) }
        return object
    }

    static func requestJSON(_ request: ObservedRequest) -> [String: Any] {
        var object: [String: Any] = [
            "id": Int(request.id), "connectionId": Int(request.connectionID), "receivedAtNanos": Int(request.receivedAtNanos),
            "latencyMicroseconds": Int(request.latencyMicroseconds), "method": request.method, "path": request.path,
            "headers": request.headers.map { ["name": $0.name, "value": $0.value] }, "status": request.status,
            "curl": CurlLine.reproduce(request),
        ]
        if let payload = request.payload { object["payload"] = payload }
        if let reason = request.reason { object["reason"] = reason }
        if let explanation = request.explanation { object["explanation"] = explanation }
        if let outcome = request.liveActivityOutcome { object["liveActivity"] = outcome }
        if let fault = request.injectedFault { object["injected"] = fault }
        return object
    }

    public func jsonText() -> String {
        let data = (try? JSONSerialization.data(withJSONObject: jsonObject(), options: [.prettyPrinted, .sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
