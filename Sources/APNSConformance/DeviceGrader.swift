import APNSJSON
import Foundation

/// Understood by the device (A-LA): what ActivityKit does with each accepted Live Activity push. Uses both the
/// payload (so a history without the simulated device's outcomes is still graded) and the device's outcome codes.
enum DeviceGrader {
    /// Outcome codes graded by a rule of their own; `device.applied` reports the rest.
    static let outcomesByRule: [String: String] = [
        "ignoredOlderTimestamp": ConformanceRule.deviceTimestamps.id,
        "ignoredAlreadyEnded": ConformanceRule.deviceAfterEnd.id,
        "droppedStartWithoutAlert": ConformanceRule.deviceStart.id,
        "droppedUnknownAttributesType": ConformanceRule.deviceStart.id,
        "droppedUndecodableAttributes": ConformanceRule.deviceStart.id,
        "throttled": ConformanceRule.deviceBudget.id,
    ]
    static let appliedOutcomes: Set<String> = ["applied", "dismissed"]

    /// A timestamp this large is milliseconds, not seconds (seconds reach 10^11 in the year 5138).
    static let millisecondsThreshold = 100_000_000_000.0

    static func liveActivities(_ history: [ObservedRequest]) -> [ObservedRequest] {
        history.filter { $0.isLiveActivity && $0.status == 200 }
    }

    static func event(_ request: ObservedRequest) -> String? { request.aps?["event"]?.stringValue }

    static func outcomeFindings(_ pushes: [ObservedRequest], rule: ConformanceRule, except flagged: Set<Int64>) -> [Finding] {
        pushes.filter { push in
            guard let code = push.liveActivityOutcome else { return false }
            return outcomesByRule[code] == rule.id && !flagged.contains(push.id)
        }.map { Finding(.fail, "device: \($0.liveActivityOutcome!): \($0.liveActivityExplanation ?? "")", requests: [$0.id]) }
    }

    static func applied(_ history: [ObservedRequest]) -> RuleResult {
        let pushes = liveActivities(history)
        if pushes.isEmpty { return .notApplicable(.deviceApplied, "no accepted Live Activity push") }
        let findings = pushes.filter { push in
            guard let code = push.liveActivityOutcome else { return false }
            return !appliedOutcomes.contains(code) && outcomesByRule[code] == nil
        }.map { Finding(.fail, "device: \($0.liveActivityOutcome!): \($0.liveActivityExplanation ?? "")", requests: [$0.id]) }
        let graded = pushes.filter { $0.liveActivityOutcome != nil }.count
        return RuleResult(rule: .deviceApplied, summary: "\(graded) of \(plural(pushes.count, "Live Activity push")) had a device outcome", findings: findings)
    }

    static func timestamps(_ history: [ObservedRequest]) -> RuleResult {
        let pushes = liveActivities(history)
        if pushes.isEmpty { return .notApplicable(.deviceTimestamps, "no accepted Live Activity push") }
        var findings: [Finding] = []
        var flagged: Set<Int64> = []
        var last: [String: (value: Double, id: Int64)] = [:]
        for push in pushes {
            let token = push.deviceToken ?? "-"
            guard case .number(let number)? = push.aps?["timestamp"], let value = Double(number) else {
                findings.append(Finding(.fail, "aps.timestamp is missing or not a number", requests: [push.id]))
                flagged.insert(push.id)
                continue
            }
            if value >= millisecondsThreshold {
                findings.append(Finding(.fail, "aps.timestamp \(number) is in milliseconds; APNs expects seconds since 1970", requests: [push.id]))
                flagged.insert(push.id)
            }
            if event(push) != "start", let previous = last[token] {
                if value < previous.value {
                    findings.append(Finding(.fail, "aps.timestamp \(number) is older than \(Int64(previous.value)) sent before to the same activity: the device ignores it", requests: [push.id, previous.id]))
                    flagged.insert(push.id)
                } else if value == previous.value {
                    findings.append(Finding(.warn, "aps.timestamp \(number) repeats the previous push's to the same activity", requests: [push.id, previous.id]))
                    flagged.insert(push.id)
                }
            }
            last[token] = (value, push.id)
        }
        findings += outcomeFindings(pushes, rule: .deviceTimestamps, except: flagged)
        return RuleResult(rule: .deviceTimestamps, summary: "\(plural(pushes.count, "Live Activity push")) to \(plural(last.count, "token"))", findings: findings)
    }

    static func afterEnd(_ history: [ObservedRequest]) -> RuleResult {
        let pushes = liveActivities(history)
        if pushes.isEmpty { return .notApplicable(.deviceAfterEnd, "no accepted Live Activity push") }
        var ended: [String: Int64] = [:]
        var findings: [Finding] = []
        var flagged: Set<Int64> = []
        for push in pushes {
            let token = push.deviceToken ?? "-"
            let kind = event(push)
            if let endID = ended[token], kind != "start" {
                findings.append(Finding(.fail, "\(kind ?? "push") after the activity ended (request #\(endID))", requests: [push.id, endID]))
                flagged.insert(push.id)
            }
            if kind == "end", ended[token] == nil { ended[token] = push.id }
        }
        findings += outcomeFindings(pushes, rule: .deviceAfterEnd, except: flagged)
        return RuleResult(rule: .deviceAfterEnd, summary: "\(ended.count) of \(Set(pushes.map { $0.deviceToken ?? "-" }).count) activities ended", findings: findings)
    }

    static func start(_ history: [ObservedRequest]) -> RuleResult {
        let starts = liveActivities(history).filter { event($0) == "start" }
        if starts.isEmpty { return .notApplicable(.deviceStart, "no start event") }
        var findings: [Finding] = []
        var flagged: Set<Int64> = []
        for push in starts {
            let aps = push.aps
            var missing: [String] = []
            if aps?["attributes-type"]?.stringValue?.isEmpty ?? true { missing.append("attributes-type") }
            if !(aps?["attributes"]?.isObject ?? false) { missing.append("attributes") }
            if aps?["alert"] == nil { missing.append("alert") }
            if !missing.isEmpty {
                findings.append(Finding(.fail, "start without \(missing.joined(separator: ", ")): the device does not start the activity", requests: [push.id]))
                flagged.insert(push.id)
            }
        }
        findings += outcomeFindings(starts, rule: .deviceStart, except: flagged)
        return RuleResult(rule: .deviceStart, summary: "\(plural(starts.count, "start")) checked", findings: findings)
    }

    static func budget(_ history: [ObservedRequest]) -> RuleResult {
        let pushes = liveActivities(history)
        if pushes.isEmpty { return .notApplicable(.deviceBudget, "no accepted Live Activity push") }
        let urgent = pushes.filter { $0.priority == 10 }.count
        let findings = outcomeFindings(pushes, rule: .deviceBudget, except: [])
        return RuleResult(rule: .deviceBudget, summary: "\(urgent) of \(plural(pushes.count, "Live Activity push")) at priority 10", findings: findings)
    }
}
