import APNSJSON
import Foundation

/// What the user decides about the verdicts (docs/conformance.md, "Choosing what fails the build"): whether
/// warnings fail the run, a rule's severity changed (`warn` demotes its failures, `fail` promotes its warnings,
/// `skip` leaves it ungraded), and rules named as expected to fail (they fail the run only when they hold).
/// Rules are named by prefix, as `--only` names them; in sender mode `SCENARIO/RULE` names one scenario's rule.
package struct GradingPolicy: Sendable, Equatable {
    package enum Severity: String, Sendable, Equatable, CaseIterable {
        case warn, fail, skip
    }

    package var failOnWarnings: Bool
    /// Rule prefix → severity; the longest matching prefix wins.
    package var severity: [String: Severity]
    package var expectFail: [String]

    package init(failOnWarnings: Bool = false, severity: [String: Severity] = [:], expectFail: [String] = []) {
        self.failOnWarnings = failOnWarnings
        self.severity = severity
        self.expectFail = expectFail
    }

    package struct Problem: Error, CustomStringConvertible {
        package let description: String
        package init(_ description: String) { self.description = description }
    }

    /// `RULE=warn|fail|skip`.
    package static func parseSeverity(_ text: String) throws -> (String, Severity) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, let severity = Severity(rawValue: parts[1]) else {
            throw Problem("--severity \(text): write RULE=warn, RULE=fail or RULE=skip (RULE a name or prefix from --list)")
        }
        try checkName(parts[0], option: "--severity")
        return (parts[0], severity)
    }

    /// A name must be a prefix of some rule (optionally after `SCENARIO/`): a typo must not silently match nothing.
    package static func checkName(_ name: String, option: String) throws {
        let rule = name.split(separator: "/", maxSplits: 1).last.map(String.init) ?? name
        if ConformanceRule.all.contains(where: { $0.id.hasPrefix(rule) }) { return }
        throw Problem("\(option) \(name): no rule starts with \(rule) (apns-mock check --list)")
    }

    /// The grading file: `{"failOn": "warn"|"fail", "severity": {"RULE": "warn"|"fail"|"skip"}, "expectFail": ["RULE"]}`.
    package static func load(_ data: Data, path: String) throws -> GradingPolicy {
        func problem(_ text: String) -> Problem { Problem("\(path): \(text)") }
        var policy = GradingPolicy()
        guard case .object(let fields)? = JSONValue.parse(Array(data)) else { throw problem("not a JSON object") }
        for member in fields {
            let (key, value) = (member.key, member.value)
            switch key {
            case "failOn":
                guard let text = value.stringValue, text == "warn" || text == "fail" else { throw problem("failOn is \"warn\" or \"fail\"") }
                policy.failOnWarnings = text == "warn"
            case "severity":
                guard case .object(let entries) = value else { throw problem("severity is an object {\"RULE\": \"warn\"|\"fail\"|\"skip\"}") }
                for entry in entries {
                    let (name, level) = (entry.key, entry.value)
                    guard let text = level.stringValue, let severity = Severity(rawValue: text) else { throw problem("severity of \(name) is warn, fail or skip") }
                    do { try checkName(name, option: "severity") } catch { throw problem("\(error)") }
                    policy.severity[name] = severity
                }
            case "expectFail":
                guard case .array(let names) = value, names.allSatisfy({ $0.stringValue != nil }) else { throw problem("expectFail is a list of rule names") }
                for name in names.compactMap(\.stringValue) {
                    do { try checkName(name, option: "expectFail") } catch { throw problem("\(error)") }
                    policy.expectFail.append(name)
                }
            default:
                throw problem("unknown key \(key) (failOn, severity, expectFail)")
            }
        }
        return policy
    }

    /// The file's choices, then the command line's on top.
    package func merged(with other: GradingPolicy) -> GradingPolicy {
        GradingPolicy(
            failOnWarnings: failOnWarnings || other.failOnWarnings,
            severity: severity.merging(other.severity) { _, new in new }, expectFail: expectFail + other.expectFail)
    }

    static func matches(_ name: String, _ ruleID: String) -> Bool {
        if ruleID.hasPrefix(name) { return true }
        if let slash = ruleID.firstIndex(of: "/") { return ruleID[ruleID.index(after: slash)...].hasPrefix(name) }
        return false
    }

    func severity(of ruleID: String) -> Severity? {
        severity.filter { Self.matches($0.key, ruleID) }.max { $0.key.count < $1.key.count }?.value
    }

    /// The results with the user's severities applied and expected failures marked.
    package func apply(_ results: [RuleResult]) -> [RuleResult] {
        results.map { original in
            var result = original
            switch severity(of: result.rule.id) {
            case .skip?:
                result = .notApplicable(result.rule, "skipped (--severity \(result.rule.id)=skip)")
            case .warn?:
                for index in result.findings.indices where result.findings[index].verdict == .fail { result.findings[index].verdict = .warn }
                if result.verdict == .fail { result.verdict = .warn; result.note = "demoted to warn by --severity" }
            case .fail?:
                for index in result.findings.indices where result.findings[index].verdict == .warn { result.findings[index].verdict = .fail }
                if result.verdict == .warn { result.verdict = .fail; result.note = "promoted to fail by --severity" }
            case nil:
                break
            }
            if expectFail.contains(where: { Self.matches($0, result.rule.id) }) { result.expectedToFail = true }
            return result
        }
    }

    /// Whether this result fails the run.
    package func fails(_ result: RuleResult) -> Bool {
        if result.expectedToFail { return result.verdict != .fail }
        return result.verdict == .fail || (failOnWarnings && result.verdict == .warn)
    }
}
