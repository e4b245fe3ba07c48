import APNSConformance
import APNSMock
import ArgumentParser
import Foundation

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Run a command against an embedded mock and grade every push it sent (CI conformance check).",
        discussion: """
            Starts a mock on free ports (TLS + admin API), runs the command with APNS_MOCK_URL, APNS_MOCK_HOST, \
            APNS_MOCK_PORT, APNS_MOCK_CA_FILE, APNS_MOCK_TEAM_ID, APNS_MOCK_KEY_ID, APNS_MOCK_KEY_FILE, \
            APNS_MOCK_TOPIC and APNS_MOCK_ADMIN_URL set, then grades every request that arrived while it ran \
            (docs/conformance.md). Standard output is the report; the command's own output goes to standard \
            error. Exit status: 0 no rule fails the run, 1 a rule failed or the command failed, 2 the runner could \
            not run (bad options, a report path in a missing folder: checked before the command starts).
            --inject REASON[:P%] | goaway[:every=N] | reset[:P%|every=N] | blackhole[:P%] | delay=MS[:P%]
            """
    )

    @OptionGroup(title: "Mock options") var serve: ServeOptions
    @OptionGroup(title: "Report options") var report: ReportOptions

    @Option(help: ArgumentHelp("Inject a fault (repeatable), e.g. Unregistered:5% or goaway:every=500.", valueName: "spec"))
    var inject: [String] = []

    @Option(help: "Seed of the injected faults' randomness (same seed, same run).")
    var seed: Int = 1

    @Argument(parsing: .postTerminator, help: "The command to run, after --.")
    var command: [String] = []

    func validate() throws {
        if !report.list && command.isEmpty { throw ValidationError("give the command to run after --, e.g. apns-mock check -- python3 send.py") }
        for spec in inject {
            do { _ = try InjectSpec.parse(spec, seed: seed) } catch { throw ValidationError("\(error)") }
        }
    }

    func run() throws {
        if report.list {
            print(ReportOptions.ruleList(), terminator: "")
            return
        }
        try report.checkOutputPaths()
        _ = try report.policy()
        let faults = try inject.enumerated().map { try InjectSpec.parse($0.element, seed: seed &+ $0.offset) }
        let outcome: ConformanceReport
        do {
            outcome = try Self.runAndGrade(
                title: "apns-mock check", command: command, serve: serve, faults: faults, report: report, extraEnvironment: [:])
        } catch let error as RunnerError {
            printError("apns-mock check: \(error)")
            throw ExitCode(2)
        }
        print(outcome.terminalText(), terminator: "")
        do { try report.write(outcome) } catch {
            printError("apns-mock check: \(error)")
            throw ExitCode(2)
        }
        throw ExitCode(outcome.exitStatus)
    }

    /// Starts the mock, installs the faults, runs the command and grades what arrived.
    static func runAndGrade(
        title: String, command: [String], serve: ServeOptions, faults: [InjectSpec], report: ReportOptions,
        extraEnvironment: [String: String], expectedPushes: Int? = nil, quiet: Bool = false,
        selection: RuleSelection? = nil, prepare: (EmbeddedMock) throws -> [String: String] = { _ in [:] }
    ) throws -> ConformanceReport {
        if let name = command.first, CommandRunner.resolve(name) == nil { throw RunnerError("command not found: \(name)") }
        let mock: EmbeddedMock
        do { mock = try EmbeddedMock(options: serve) } catch { throw RunnerError("\(error)") }
        defer { mock.shutdown() }
        let status: Int32
        let requests: [ObservedRequest]
        do {
            try mock.install(faults)
            let before = try mock.latestID()
            if !quiet {
                printError("apns-mock check: mock at \(mock.environment["APNS_MOCK_URL"]!) (admin \(mock.environment["APNS_MOCK_ADMIN_URL"]!)); running: \(command.joined(separator: " "))")
            }
            let progress = ProgressPrinter(admin: mock.admin, after: before)
            if !quiet { progress.start() }
            defer { if !quiet { progress.stop() } }
            let prepared = try prepare(mock)
            status = try CommandRunner.run(command, environment: mock.environment.merging(extraEnvironment) { _, new in new }.merging(prepared) { _, new in new })
            requests = try mock.requests(after: before)
        } catch {
            throw RunnerError("\(error)")
        }
        let context = RunContext(
            commandExitStatus: status, minimumBackoffMilliseconds: report.minimumBackoffMilliseconds, expectedPushes: expectedPushes)
        let policy = try report.policy()
        let results = policy.apply(SenderGrader(context: context).grade(requests, selection: selection ?? report.selection))
        return ConformanceReport(
            title: title, command: command, commandExitStatus: status, results: results, requests: requests,
            policy: policy, injected: faults.map(\.text))
    }
}
