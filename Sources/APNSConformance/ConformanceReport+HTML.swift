extension ConformanceReport {
    /// A page a person reads: the rule table, then each failure and warning with the request, the answer, the
    /// explanation and a `curl` line that sends it again. Every value is escaped.
    package func html() -> String {
        let e = Markup.escape
        var page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(e(title))</title>
            <style>
            body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:70em}
            table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}
            .pass{background:#e6f4ea}.warn{background:#fef7e0}.fail{background:#fce8e6}.na{color:#777}
            pre{background:#f6f6f6;padding:.6em;overflow-x:auto;white-space:pre-wrap}
            </style></head><body>
            <h1>\(e(title))</h1>
            <p><code>\(e(command.joined(separator: " ")))</code></p>
            <p><strong>\(exitStatus == 0 ? "PASS" : "FAIL")</strong>: \(e(headline))</p>

            """
        if !injected.isEmpty { page += "<p>Injected faults: <code>\(e(injected.joined(separator: " ")))</code></p>\n" }
        let warned = warnedRuleNames
        if !warned.isEmpty {
            page += "<p class=\"warn\"><strong>\(warned.count) warned</strong>\(strict ? " (warnings fail this run)" : ""): \(warned.map { "<a href=\"#\(e($0))\">\(e($0))</a>" }.joined(separator: ", "))</p>\n"
        }
        if !crossChecks.isEmpty { page += "<h2>Sender-side cross-check</h2><pre>\(e(crossChecks.map { $0.terminalText() }.joined()))</pre>\n" }
        page += "<table><tr><th>Rule</th><th>Verdict</th><th>What was checked</th><th>Sources</th></tr>\n"
        for result in results {
            let css = result.verdict == .notApplicable ? "na" : result.verdict.rawValue
            page += "<tr class=\"\(css)\"><td><a href=\"#\(e(result.rule.id))\">\(e(result.rule.id))</a> \(e(result.rule.title))</td><td>\(e(result.verdict.rawValue))\(result.expectedToFail ? " (expected to fail)" : "")\(isFailure(result) ? " — fails the run" : "")</td><td>\(e(result.summary))\(result.note.map { " (" + e($0) + ")" } ?? "")</td><td>\(e(result.rule.sources.joined(separator: ", ")))</td></tr>\n"
        }
        page += "</table>\n"
        page += "<p>The <code>curl</code> lines send a request again: set <code>APNS_MOCK_URL</code> and <code>APNS_MOCK_CA_FILE</code> (a running mock: <code>apns-mock serve</code> prints them; the defaults are https://localhost:2197 and certs/dev-ca.pem) and <code>JWT</code> (a provider token for your key, as in Apple&#39;s command-line recipe).</p>\n"
        for result in results where !result.findings.isEmpty {
            page += "<h2 id=\"\(e(result.rule.id))\">\(e(result.rule.id)): \(e(result.rule.title)) — \(e(result.verdict.rawValue))</h2>\n"
            page += "<p>\(e(result.rule.requirement))</p>\n"
            for finding in result.findings {
                page += "<div class=\"\(finding.verdict.rawValue)\"><p><strong>\(e(finding.verdict.rawValue))</strong>: \(e(finding.message))</p>\n"
                for id in finding.requestIDs.prefix(2) {
                    guard let request = request(id) else { continue }
                    page += "<p>Request #\(id) on connection \(request.connectionID)</p>\n"
                    var sent = "\(request.method) \(request.path)\n"
                    for header in request.headers { sent += "\(header.name): \(header.value)\n" }
                    if let payload = request.payload { sent += "\n\(payload)\n" }
                    page += "<pre>\(e(sent))</pre>\n"
                    var answer = "\(request.status)" + (request.reason.map { " {\"reason\":\"\($0)\"}" } ?? "")
                    if let outcome = request.liveActivityOutcome { answer += "\ndevice: \(outcome)" }
                    page += "<p>Answer:</p><pre>\(e(answer))</pre>\n"
                    if let explanation = request.explanation ?? request.liveActivityExplanation {
                        page += "<p>Why: \(e(explanation))</p>\n"
                    }
                    page += "<p>Reproduce:</p><pre>\(e(CurlLine.reproduce(request)))</pre>\n"
                }
                page += "</div>\n"
            }
        }
        page += "</body></html>\n"
        return page
    }
}
