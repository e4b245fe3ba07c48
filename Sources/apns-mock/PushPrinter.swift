import HTTP2
import APNSJSON
import APNSCommandLine
import APNSCore
import APNSStore
import Foundation

/// Prints what `apns-mock push` got back: one line per answer (status, reason, `apns-id`, `apns-unique-id`) and,
/// against the mock, its explanation, warnings and what the simulated device did; or one JSON object per answer.
struct PushPrinter: Sendable {
    let json: Bool
    /// Every push on its own lines (few pushes); otherwise only those not accepted, up to a limit.
    let detailed: Bool
    let admin: PushAdminLookup?
    /// Several pushes: each line starts with the push's number and token.
    let numbered: Bool
    let style = TerminalStyle.current()
    private let shownProblems = Locked(0)
    static let problemLimit = 20

    init(json: Bool, detailed: Bool, admin: PushAdminLookup?, numbered: Bool = false) {
        self.json = json
        self.detailed = detailed
        self.admin = admin
        self.numbered = numbered
    }

    func print(_ outcome: PushOutcome) {
        let record = detailed ? outcome.apnsID.flatMap { admin?.record(apnsID: $0) } : nil
        if json {
            Swift.print(Self.jsonLine(outcome, record: record))
            return
        }
        if !detailed {
            guard !outcome.isAccepted else { return }
            let shown = shownProblems.withLock { count -> Int in count += 1; return count }
            if shown > Self.problemLimit { return }
            if shown == Self.problemLimit { Swift.print("(only the first \(Self.problemLimit) pushes not accepted are shown)") }
        }
        Swift.print(text(outcome, record: record))
    }

    func text(_ outcome: PushOutcome, record: DeliveryRecord?) -> String {
        var lines: [String] = []
        var head: String
        if let status = outcome.status {
            let verdict = status == 200 ? style.paint("200", .green) : style.paint("\(status) \(outcome.reason ?? "")", .red)
            head = verdict
            if let timestamp = outcome.timestamp {
                head += " (token invalid since \(DeliveryRecord.iso8601(Timestamp(nanosecondsSinceEpoch: timestamp * 1_000_000))))"
            }
            if let record, record.acceptedButNotApplied, let handling = record.deviceHandling {
                head += style.paint(" · \(handling.label)", .yellow)
            } else if let record, record.willMisbehaveOnDevice {
                head += style.paint(" · \(DeliveryRecord.misbehavesLabel)", .yellow)
            }
            head += "  apns-id \(outcome.apnsID ?? "-")"
            if let unique = outcome.apnsUniqueID { head += "  apns-unique-id \(unique)" }
            head += style.paint(String(format: "  %.1f ms", outcome.latency * 1000), .dim)
        } else if let skipped = outcome.skipped {
            head = style.paint("not sent", .yellow) + ": \(skipped)"
        } else {
            head = style.paint("no answer", .red) + ": \(outcome.error ?? "unknown error")"
        }
        if numbered { head = "#\(outcome.index + 1) \(outcome.deviceToken.prefix(8))…  " + head }
        lines.append(head)
        for earlier in outcome.history { lines.append("  earlier: \(earlier)") }
        if let record {
            if let explanation = record.explanation { lines.append("  mock: \(explanation)") }
            if let rule = record.ruleID { lines.append("  rule: \(rule)\(record.strict ? " (strict mode: the mock's rule, not APNs')" : "")") }
            if let fix = record.fix { lines.append("  how to fix: \(fix)") }
            for warning in record.warnings { lines.append("  " + style.paint("warning \(warning.code)", .yellow) + ": \(warning.message)") }
            if let device = record.liveActivity { lines.append("  device: \(device.explanation)") }
        }
        return lines.joined(separator: "\n")
    }

    static func jsonLine(_ outcome: PushOutcome, record: DeliveryRecord?) -> String {
        var object: [JSONMember] = [
            JSONMember("index", .integer(outcome.index)), JSONMember("deviceToken", .string(outcome.deviceToken)),
            JSONMember("status", outcome.status.map(JSONValue.integer) ?? .null),
            JSONMember("apnsID", .nullable(outcome.apnsID)), JSONMember("apnsUniqueID", .nullable(outcome.apnsUniqueID)),
            JSONMember("reason", .nullable(outcome.reason)), JSONMember("attempts", .integer(outcome.attempts)),
            JSONMember("connection", .integer(outcome.connection)),
            JSONMember("latencyMs", .number((outcome.latency * 1_000_000).rounded() / 1000)),
        ]
        if let timestamp = outcome.timestamp { object.append(JSONMember("timestamp", .integer(timestamp))) }
        if let error = outcome.error { object.append(JSONMember("error", .string(error))) }
        if let skipped = outcome.skipped { object.append(JSONMember("skipped", .string(skipped))) }
        if !outcome.history.isEmpty { object.append(JSONMember("history", .array(outcome.history.map(JSONValue.string)))) }
        if let record {
            object.append(JSONMember("explanation", .nullable(record.explanation)))
            if let rule = record.ruleID { object.append(JSONMember("ruleID", .string(rule))) }
            if let fix = record.fix { object.append(JSONMember("fix", .string(fix))) }
            let misbehaving = record.misbehavingWarningCodes
            if !misbehaving.isEmpty {
                object.append(JSONMember("deviceWillMisbehave", .array(misbehaving.map(JSONValue.string))))
            }
            object.append(JSONMember("warnings", .warnings(record.warnings)))
            if let device = record.liveActivity {
                object.append(JSONMember("liveActivity", .object([
                    JSONMember("code", .string(device.code)), JSONMember("explanation", .string(device.explanation)),
                ])))
            }
            object.append(JSONMember("deliveryID", .integer(record.id)))
        }
        return JSONValue.object(object).sortedCompactText
    }

    func printSummary(_ summary: PushRunSummary, endpoint: HTTP2Endpoint) {
        var lines: [String] = []
        let transport = [summary.alpn ?? (endpoint.useTLS ? nil : "h2c"), summary.tlsVersion].compactMap { $0 }.joined(separator: ", ")
        let connections = summary.connectionsOpened == 1 ? "1 connection" : "\(summary.connectionsOpened) connections"
        lines.append(String(
            format: "%d pushes in %.2f s over %@%@ to %@: %.0f requests/s, at most %d in flight",
            summary.total, summary.elapsed, connections, transport.isEmpty ? "" : " (\(transport))", endpoint.description,
            summary.requestsPerSecond, summary.peakInFlight))
        if let p50 = summary.percentile(0.5), let p99 = summary.percentile(0.99) {
            lines.append(String(format: "latency p50 %.1f ms, p99 %.1f ms", p50 * 1000, p99 * 1000))
        }
        let answers = summary.answers.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) ×\($0.value)" }
        if !answers.isEmpty { lines.append("answers: " + answers.joined(separator: ", ")) }
        if summary.notSent > 0 { lines.append("not sent: \(summary.notSent) (no connection)") }
        let text = lines.joined(separator: "\n")
        if json { printError(text) } else { Swift.print(text) }
    }
}
