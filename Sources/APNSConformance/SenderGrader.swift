import Foundation

/// What the grader knows about a run besides the requests.
package struct RunContext: Sendable, Equatable {
    /// The sender's exit status, when it ran as a command.
    package var commandExitStatus: Int32?
    /// SETTINGS_MAX_CONCURRENT_STREAMS the mock announced after authentication.
    package var maxConcurrentStreams: Int
    /// A retry sooner than this after a 429/500/503 answer is no back-off.
    package var minimumBackoffMilliseconds: Int64
    /// How many distinct pushes the scenario asked for (sender mode); nil in check mode.
    package var expectedPushes: Int?

    package init(commandExitStatus: Int32? = nil, maxConcurrentStreams: Int = 1000, minimumBackoffMilliseconds: Int64 = 100, expectedPushes: Int? = nil) {
        self.commandExitStatus = commandExitStatus
        self.maxConcurrentStreams = maxConcurrentStreams
        self.minimumBackoffMilliseconds = minimumBackoffMilliseconds
        self.expectedPushes = expectedPushes
    }
}

/// Grades a sender from the requests the mock recorded while it ran. Pure: same history, same report.
package struct SenderGrader: Sendable {
    package var context: RunContext

    package init(context: RunContext = RunContext()) { self.context = context }

    package func grade(_ requests: [ObservedRequest], selection: RuleSelection = RuleSelection()) -> [RuleResult] {
        let history = requests.sorted { ($0.receivedAtNanos, $0.id) < ($1.receivedAtNanos, $1.id) }
        return ConformanceRule.all.filter { selection.includes($0.id) }.map { grade(rule: $0, history) }
    }

    func grade(rule: ConformanceRule, _ history: [ObservedRequest]) -> RuleResult {
        if history.isEmpty {
            // A sender that sent nothing must not pass: it was probably pointed somewhere else.
            guard rule == .acceptedStatus else { return .notApplicable(rule, "no request arrived") }
            return RuleResult(rule: rule, summary: "no request arrived", findings: [
                Finding(.fail, "no request arrived: the command sent nothing to APNS_MOCK_URL"),
            ])
        }
        switch rule.id {
        case ConformanceRule.acceptedStatus.id: return AcceptanceGrader.status(history)
        case ConformanceRule.acceptedWarnings.id: return AcceptanceGrader.warnings(history)
        case ConformanceRule.acceptedDuplicates.id: return AcceptanceGrader.duplicates(history)
        case ConformanceRule.deviceApplied.id: return DeviceGrader.applied(history)
        case ConformanceRule.deviceTimestamps.id: return DeviceGrader.timestamps(history)
        case ConformanceRule.deviceAfterEnd.id: return DeviceGrader.afterEnd(history)
        case ConformanceRule.deviceStart.id: return DeviceGrader.start(history)
        case ConformanceRule.deviceBudget.id: return DeviceGrader.budget(history)
        case ConformanceRule.authES256.id: return AuthGrader.es256(history)
        case ConformanceRule.authReuse.id: return AuthGrader.reuse(history)
        case ConformanceRule.authRefresh.id: return AuthGrader.refresh(history)
        case ConformanceRule.authExpiredRetry.id: return AuthGrader.expiredRetry(history)
        case ConformanceRule.connectionReuse.id: return ConnectionGrader.reuse(history)
        case ConformanceRule.connectionStreams.id: return ConnectionGrader.streams(history, limit: context.maxConcurrentStreams)
        case ConformanceRule.connectionPipelining.id: return ConnectionGrader.pipelining(history)
        case ConformanceRule.errorTokenGone.id: return ErrorGrader.tokenGone(history)
        case ConformanceRule.errorPermanent.id: return ErrorGrader.permanent(history)
        case ConformanceRule.errorTransient.id: return ErrorGrader.transient(history, minimumBackoffMilliseconds: context.minimumBackoffMilliseconds)
        case ConformanceRule.errorGoaway.id: return ErrorGrader.goaway(history, context: context)
        case ConformanceRule.errorUnknownReason.id: return ErrorGrader.unknownReason(history, context: context)
        default: return .notApplicable(rule, "no grader")
        }
    }
}

/// How many rules came out each way.
package struct GradeSummary: Sendable, Equatable {
    package var passed = 0, warned = 0, failed = 0, notApplicable = 0

    package init(_ results: [RuleResult]) {
        for result in results {
            switch result.verdict {
            case .pass: passed += 1
            case .warn: warned += 1
            case .fail: failed += 1
            case .notApplicable: notApplicable += 1
            }
        }
    }
}

func plural(_ count: Int, _ noun: String) -> String {
    if count == 1 { return "1 \(noun)" }
    return "\(count) \(noun)\(noun.hasSuffix("sh") || noun.hasSuffix("s") ? "es" : "s")"
}

func milliseconds(_ nanos: Int64) -> String {
    let ms = Double(nanos) / 1_000_000
    return ms < 10 ? String(format: "%.1f ms", ms) : "\(Int64(ms.rounded())) ms"
}
