import Foundation

/// The report of `apns-mock conformance server`: terminal text, JSON, JUnit XML, exit status.
public struct ServerConformanceReport: Sendable {
    public var url: String
    public var results: [ServerCaseResult]
    /// Set when the peer could not be graded case by case (it does not speak HTTP/2).
    public var transportProblem: String?

    public init(url: String, results: [ServerCaseResult], transportProblem: String? = nil) {
        self.url = url
        self.results = results
        self.transportProblem = transportProblem
    }

    public var passed: Int { results.filter { $0.verdict == .pass }.count }
    public var failed: Int { results.filter { $0.verdict == .fail }.count + (transportProblem == nil ? 0 : 1) }
    public var skipped: Int { results.filter { $0.verdict == .skip }.count }

    /// 0 every graded case passed, 1 a case failed (or the peer is not HTTP/2).
    public var exitStatus: Int32 { failed > 0 ? 1 : 0 }

    public func terminalText() -> String {
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

    public func jsonData() throws -> Data {
        var object: [String: Any] = [
            "url": url, "passed": passed, "failed": failed, "skipped": skipped,
            "cases": results.map { result -> [String: Any] in
                var entry: [String: Any] = ["id": result.id, "title": result.title, "verdict": result.verdict.rawValue, "messages": result.messages]
                if let source = result.source { entry["source"] = source }
                if let status = result.status { entry["status"] = status }
                if let reason = result.reason { entry["reason"] = reason }
                return entry
            },
        ]
        if let transportProblem { object["transportProblem"] = transportProblem }
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    /// JUnit XML: one `<testcase>` per case, named by its id and title; skipped cases are `<skipped>`.
    public func junitXML() -> String {
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
