import APNSJSON
import APNSCore
import Foundation

/// The report `apns-mock explain <apns-id>` prints: verdict, reason, explanation, warnings, Live Activity outcome,
/// headers, decoded JWT and the payload pretty-printed.
package enum DeliveryExplanation {
    package static func render(_ record: DeliveryRecord, style: TerminalStyle) -> String {
        var lines: [String] = []
        let verdict = record.acceptedButNotApplied
            ? style.paint("ACCEPTED · \(record.deviceHandling?.label.uppercased() ?? "")", .yellow)
            : record.willMisbehaveOnDevice
            ? style.paint("ACCEPTED · \(DeliveryRecord.misbehavesLabel.uppercased())", .yellow)
            : record.accepted ? style.paint("ACCEPTED", .green) : style.paint("REJECTED", .red)
        let reason = record.reason.map { " \($0)" } ?? ""
        let status = record.status == 0 ? "no answer" : String(record.status)
        lines.append("\(verdict)  \(status)\(reason)   apns-id \(record.apnsID)   delivery #\(record.id)")
        if let injected = record.injected {
            lines.append(style.paint("INJECTED FAULT", .yellow) + " #\(injected.index) (\(injected.effect)): \(injected.faultJSON)")
            lines.append("  the rules would have answered \(injected.rulesAnswer)")
        }
        if let explanation = record.explanation { lines.append(""); lines.append(explanation) }
        if let rule = record.ruleID { lines.append("rule: \(rule)\(record.strict ? " (strict mode)" : "")") }
        if let fix = record.fix { lines.append(style.paint("how to fix: ", .bold) + fix) }
        if record.willMisbehaveOnDevice {
            lines.append(style.paint("device will misbehave: ", .yellow) + record.misbehavingWarningCodes.joined(separator: ", ")
                + " (APNs answered 200; see the warnings)")
        }
        if !record.warnings.isEmpty {
            lines.append("")
            lines.append(style.paint("Warnings", .bold))
            for warning in record.warnings {
                lines.append("  " + style.paint("⚠ \(warning.code)", .yellow) + ": \(warning.message)")
            }
        }
        if let outcome = record.liveActivity {
            lines.append("")
            lines.append(style.paint("Live Activity", .bold))
            // The device's sentences already begin with their verdict ("applied: ..."); do not say it twice.
            if outcome.explanation.hasPrefix(outcome.code + ":") {
                lines.append("  \(outcome.explanation)")
            } else if let handling = record.deviceHandling, outcome.explanation.hasPrefix(handling.rawValue + ":") {
                lines.append("  \(outcome.explanation)  [\(outcome.code)]")
            } else {
                lines.append("  \(outcome.code): \(outcome.explanation)")
            }
        }
        lines.append("")
        lines.append(style.paint("Request", .bold))
        var facts: [(String, String)] = [
            ("received", DeliveryRecord.iso8601(record.receivedAt)),
            ("request", "\(record.method) \(record.path)"),
            ("client", "\(record.clientAddress) (connection \(record.connectionID))"),
            ("answered in", "\(record.latencyMicroseconds) µs"),
        ]
        if let environment = record.environment { facts.append(("environment", environment.rawValue)) }
        if let tls = record.tls {
            facts.append(("tls", "\(tls.version) \(tls.cipher), ALPN \(tls.alpn ?? "none")"))
        } else {
            facts.append(("tls", "none (h2c)"))
        }
        if let unique = record.apnsUniqueID { facts.append(("apns-unique-id", unique)) }
        lines.append(contentsOf: aligned(facts))
        lines.append("")
        lines.append(style.paint("Headers", .bold))
        lines.append(contentsOf: aligned(record.headers.map { ($0.name, $0.value) }))
        if let token = record.providerToken {
            lines.append("")
            lines.append(style.paint("Provider token (JWT), fingerprint \(token.fingerprint)", .bold))
            lines.append(indent(pretty(token.header ?? "(header did not decode)")))
            lines.append(indent(pretty(token.claims ?? "(claims did not decode)")))
        }
        if let certificate = record.clientCertificate {
            lines.append("")
            lines.append(style.paint("Client certificate (certificate-based authentication)", .bold))
            var facts = [
                ("subject", certificate.subject), ("bundle ID", certificate.bundleID ?? "(none: no subject UID)"),
                ("environment", certificate.environments.isEmpty ? "(none)" : certificate.environments.joined(separator: ", ")),
                ("topics", certificate.topics.joined(separator: ", ")),
                ("trusted", certificate.trusted ? "yes (issued by the mock's CA)" : "no"), ("sha256", certificate.sha256),
            ]
            if let problem = certificate.problem { facts.append(("problem", problem)) }
            lines.append(contentsOf: aligned(facts))
        }
        lines.append("")
        lines.append(style.paint("Payload (\(record.payload.count) bytes)", .bold))
        if let text = record.payloadText {
            lines.append(indent(pretty(text)))
        } else {
            lines.append(indent("base64: " + Data(record.payload).base64EncodedString()))
        }
        return lines.joined(separator: "\n")
    }

    /// JSON re-indented (keys sorted) when it parses; the text unchanged otherwise.
    static func pretty(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let value = JSONValue.parse(Array(text.utf8)), let data = try? encoder.encode(value) else { return text }
        return String(decoding: data, as: UTF8.self)
    }

    static func aligned(_ pairs: [(String, String)]) -> [String] {
        let width = pairs.map(\.0.count).max() ?? 0
        return pairs.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }
    }

    static func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    }
}
