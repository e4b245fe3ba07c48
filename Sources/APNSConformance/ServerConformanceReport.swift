import Foundation

/// The report of `apns-mock conformance server`: terminal text, JSON, JUnit XML, exit status.
package struct ServerConformanceReport: Sendable {
    package var url: String
    package var results: [ServerCaseResult]
    /// Set when the peer could not be graded case by case (it does not speak HTTP/2).
    package var transportProblem: String?

    package init(url: String, results: [ServerCaseResult], transportProblem: String? = nil) {
        self.url = url
        self.results = results
        self.transportProblem = transportProblem
    }

    package var passed: Int { results.filter { $0.verdict == .pass }.count }
    package var failed: Int { results.filter { $0.verdict == .fail }.count + (transportProblem == nil ? 0 : 1) }
    package var skipped: Int { results.filter { $0.verdict == .skip }.count }

    /// 0 every graded case passed, 1 a case failed (or the peer is not HTTP/2).
    package var exitStatus: Int32 { failed > 0 ? 1 : 0 }

    package func terminalText() -> String {
        var lines: [String] = ["apns-mock conformance server \(url)"]
        if let transportProblem { lines.append("FAIL  transport.http2  \(transportProblem)") }
        for result in results {
            switch result.verdict {
            case .pass: lines.append("PASS  \(result.id)")
            case .fail:
                lines.append("FAIL  \(result.id)  \(result.title)")
                for message in result.messages { lines.append("        \(message)") }
            case .skip: lines.append("skip  \(result.id)  \(result.messages.first ?? "")")
            }
        }
        lines.append("\(passed) passed, \(failed) failed, \(skipped) skipped (of \(results.count) cases)")
        return lines.joined(separator: "\n") + "\n"
    }

    package func jsonData() throws -> Data {
        struct Case: Encodable {
            var id, title, verdict: String
            var messages: [String]
            var source, reason: String?
            var status: Int?
        }
        struct Document: Encodable {
            var url: String
            var passed, failed, skipped: Int
            var cases: [Case]
            var transportProblem: String?
        }
        let document = Document(
            url: url, passed: passed, failed: failed, skipped: skipped,
            cases: results.map {
                Case(id: $0.id, title: $0.title, verdict: $0.verdict.rawValue, messages: $0.messages, source: $0.source,
                     reason: $0.reason, status: $0.status)
            },
            transportProblem: transportProblem)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document)
    }

    /// JUnit XML: one `<testcase>` per case, named by its id and title; skipped cases are `<skipped>`.
    package func junitXML() -> String {
        let suite = Markup.escape("apns-mock conformance server \(url)")
        let total = results.count + (transportProblem == nil ? 0 : 1)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(suite)\" tests=\"\(total)\" failures=\"\(failed)\" errors=\"0\" skipped=\"\(skipped)\">\n"
        xml += "  <testsuite name=\"\(suite)\" tests=\"\(total)\" failures=\"\(failed)\" errors=\"0\" skipped=\"\(skipped)\">\n"
        if let transportProblem {
            xml += "    <testcase classname=\"apns-mock.server.transport\" name=\"transport.http2: the server speaks HTTP/2\">\n"
            xml += "      <failure message=\"\(Markup.escape(transportProblem))\" type=\"fail\"/>\n    </testcase>\n"
        }
        for result in results {
            xml += "    <testcase classname=\"apns-mock.server.device-push\" name=\"\(Markup.escape("\(result.id): \(result.title)"))\">\n"
            switch result.verdict {
            case .pass: break
            case .skip: xml += "      <skipped message=\"\(Markup.escape(result.messages.first ?? ""))\"/>\n"
            case .fail:
                let details = result.messages.joined(separator: "\n") + (result.source.map { "\nsource: \($0)" } ?? "")
                xml += "      <failure message=\"\(Markup.escape(result.messages.first ?? "failed"))\" type=\"fail\">\(Markup.escape(details))</failure>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }
}
