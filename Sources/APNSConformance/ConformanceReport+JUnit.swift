extension ConformanceReport {
    /// JUnit XML: one `<testcase>` per rule, each with a `name`; failures carry the findings and the evidence,
    /// rules that could not be exercised are `<skipped>`; warnings are failures under `--strict`.
    public func junitXML() -> String {
        let failures = results.filter { isFailure($0.verdict) }.count
        let skipped = results.filter { $0.verdict == .notApplicable }.count
        let suite = Markup.escape(title)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(suite)\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(commandFailed ? 1 : 0)\" skipped=\"\(skipped)\">\n"
        xml += "  <testsuite name=\"\(suite)\" tests=\"\(results.count + (commandFailed ? 1 : 0))\" failures=\"\(failures)\" errors=\"\(commandFailed ? 1 : 0)\" skipped=\"\(skipped)\">\n"
        if commandFailed {
            xml += "    <testcase classname=\"apns-mock.command\" name=\"command exits 0\">\n"
            xml += "      <error message=\"\(Markup.escape("exit status \(commandExitStatus!)"))\">\(Markup.escape(command.joined(separator: " ")))</error>\n"
            xml += "    </testcase>\n"
        }
        for result in results {
            let name = Markup.escape("\(result.rule.id): \(result.rule.title)")
            xml += "    <testcase classname=\"apns-mock.\(Markup.escape(result.rule.category))\" name=\"\(name)\">\n"
            if result.verdict == .notApplicable {
                xml += "      <skipped message=\"\(Markup.escape(result.summary))\"/>\n"
            } else if isFailure(result.verdict) {
                let first = result.findings.first { isFailure($0.verdict) }?.message ?? result.summary
                xml += "      <failure message=\"\(Markup.escape(first))\" type=\"\(result.verdict.rawValue)\">\(Markup.escape(details(result)))</failure>\n"
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
