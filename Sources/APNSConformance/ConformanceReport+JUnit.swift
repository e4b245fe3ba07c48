extension ConformanceReport {
    /// JUnit XML: one `<testcase>` per rule, each with a `name`; failures carry the findings and the evidence,
    /// rules that could not be exercised and expected failures are `<skipped>`; warnings are failures under
    /// `--fail-on warn`, otherwise a testcase that carries `<property name="verdict" value="warn"/>` and the
    /// findings in `<system-err>` (CI reporters show both), never a bare pass.
    package func junitXML() -> String {
        let failures = results.filter(isFailure).count
        let skipped = results.filter { !isFailure($0) && ($0.verdict == .notApplicable || $0.expectedToFail) }.count
        let warned = results.filter { $0.verdict == .warn && !isFailure($0) }.count
        let suite = Markup.escape(title)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(suite)\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(commandFailed ? 1 : 0)\" skipped=\"\(skipped)\">\n"
        xml += "  <testsuite name=\"\(suite)\" tests=\"\(results.count + (commandFailed ? 1 : 0))\" failures=\"\(failures)\" errors=\"\(commandFailed ? 1 : 0)\" skipped=\"\(skipped)\">\n"
        xml += "    <properties><property name=\"warnings\" value=\"\(warned)\"/><property name=\"failOn\" value=\"\(strict ? "warn" : "fail")\"/></properties>\n"
        if commandFailed {
            xml += "    <testcase classname=\"apns-mock.command\" name=\"command exits 0\">\n"
            xml += "      <error message=\"\(Markup.escape("exit status \(commandExitStatus!)"))\">\(Markup.escape(command.joined(separator: " ")))</error>\n"
            xml += "    </testcase>\n"
        }
        for result in results {
            let name = Markup.escape("\(result.rule.id): \(result.rule.title)")
            xml += "    <testcase classname=\"apns-mock.\(Markup.escape(result.rule.category))\" name=\"\(name)\">\n"
            xml += "      <properties><property name=\"verdict\" value=\"\(result.verdict.rawValue)\"/></properties>\n"
            if isFailure(result) {
                let first = result.expectedToFail
                    ? "expected to fail (--expect-fail), but it did not: \(result.summary)"
                    : result.findings.first { isFailing($0.verdict) }?.message ?? result.summary
                xml += "      <failure message=\"\(Markup.escape(first))\" type=\"\(result.verdict.rawValue)\">\(Markup.escape(details(result)))</failure>\n"
            } else if result.verdict == .notApplicable {
                xml += "      <skipped message=\"\(Markup.escape(result.summary))\"/>\n"
            } else if result.expectedToFail {
                xml += "      <skipped message=\"\(Markup.escape("expected to fail (--expect-fail): " + (result.findings.first?.message ?? result.summary)))\"/>\n"
                xml += "      <system-out>\(Markup.escape(details(result)))</system-out>\n"
            } else if result.verdict == .warn {
                xml += "      <system-err>\(Markup.escape("WARN " + details(result)))</system-err>\n"
            } else if !result.findings.isEmpty {
                xml += "      <system-out>\(Markup.escape(details(result)))</system-out>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    func details(_ result: RuleResult) -> String {
        var text = "\(result.rule.requirement) (\(result.rule.sources.joined(separator: ", ")))\n\(result.summary)\n"
        for finding in result.findings {
            text += "\(finding.verdict.rawValue): \(finding.message)\n"
            if let id = finding.requestIDs.first, let request = request(id) {
                text += "  request #\(id): \(request.method) \(request.path) -> \(request.status) \(request.reason ?? "")\n"
                text += "  \(CurlLine.reproduce(request))\n"
            }
        }
        return text
    }
}
