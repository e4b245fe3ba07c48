import APNSConformance
import APNSMock
import ArgumentParser
import Foundation

/// `apns-mock conformance sender --adapter NAME|COMMAND`: runs a sender through each named scenario
/// (Conformance/scenarios/*.json) against a fresh embedded mock and grades what arrived.
struct ConformanceSenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sender",
        abstract: "Grade a sender library through the named scenarios of Conformance/scenarios.",
        discussion: """
            For each scenario the adapter runs once with the APNS_MOCK_* environment of `apns-mock check` plus \
            APNS_MOCK_SCENARIO, the path of a JSON file listing the pushes to send (deviceToken, pushType, topic, \
            priority, payload). NAME is an executable in Conformance/adapters; anything else runs with /bin/sh -c. \
            Exit status: 0 every rule holds, 1 a rule failed or the adapter failed, 2 the runner could not run.
            """
    )

    @Option(help: ArgumentHelp("Adapter: a name in Conformance/adapters (curl, aioapns, …) or a shell command.", valueName: "name|command"))
    var adapter: String?

    @Option(help: ArgumentHelp("Directory of scenario files (default: Conformance/scenarios).", valueName: "dir"))
    var scenarios: String?

    @Option(help: ArgumentHelp("Run only the scenarios with these names (repeatable).", valueName: "name"))
    var scenario: [String] = []

    @OptionGroup(title: "Mock options") var serve: ServeOptions
    @OptionGroup(title: "Report options") var report: ReportOptions

    func validate() throws {
        if !report.list && adapter == nil { throw ValidationError("give --adapter NAME|COMMAND (see --list)") }
    }

    func run() throws {
        let directory = scenarios.map { URL(fileURLWithPath: $0) } ?? Self.repositoryFile("Conformance/scenarios")
        let loaded: [(URL, Scenario)]
        do {
            loaded = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
                .map { ($0, try Scenario.load($0)) }
                .filter { scenario.isEmpty || scenario.contains($0.1.name) }
        } catch {
            printError("apns-mock conformance sender: cannot read scenarios in \(directory.path) (run it in an apns-mock checkout, or give --scenarios DIR): \(error)")
            throw ExitCode(2)
        }
        if report.list {
            print(ReportOptions.ruleList())
            print("Scenarios (\(directory.path)):")
            for (_, item) in loaded { print("  \(item.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(item.title) [grades: \(item.grades.joined(separator: ", "))]") }
            print("Adapters (\(Self.repositoryFile("Conformance/adapters").path)): \(Self.adapterNames().joined(separator: ", "))")
            return
        }
        try report.checkOutputPaths()
        let policy = try report.policy()
        guard let adapter, !loaded.isEmpty else {
            printError("apns-mock conformance sender: no scenario to run")
            throw ExitCode(2)
        }
        let command = Self.adapterCommand(adapter)
        if command.first == "/bin/sh", let word = adapter.split(separator: " ").first, CommandRunner.resolve(String(word)) == nil {
            printError("apns-mock conformance sender: no adapter named \(adapter) in Conformance/adapters (\(Self.adapterNames().joined(separator: ", "))) and no command \(word)")
            throw ExitCode(2)
        }
        var serve = serve
        let attributes = directory.appendingPathComponent("DeliveryAttributes.swift")
        if serve.activitySources.isEmpty, serve.activitySchemas.isEmpty, FileManager.default.fileExists(atPath: attributes.path) {
            serve.activitySources = [attributes.path]
        }
        var results: [RuleResult] = []
        var requests: [ObservedRequest] = []
        var failedRuns: [String] = []
        var crossChecks: [SenderCrossCheck] = []
        var ran = 0
        for (_, item) in loaded {
            printError("== \(item.name): \(item.title)")
            let selection = RuleSelection(only: item.grades, skip: report.skip)
            let instructionFile = FileManager.default.temporaryDirectory.appendingPathComponent("apns-mock-scenario-\(getpid())-\(item.name).json")
            let resultsFile = FileManager.default.temporaryDirectory.appendingPathComponent("apns-mock-sender-results-\(getpid())-\(item.name).jsonl")
            defer {
                try? FileManager.default.removeItem(at: instructionFile)
                try? FileManager.default.removeItem(at: resultsFile)
            }
            var instructions = Data()
            do {
                let faults = (item.faults ?? []).map { InjectSpec(text: $0.text, faultJSON: $0.text) }
                let outcome = try CheckCommand.runAndGrade(
                    title: item.name, command: command, serve: serve, faults: faults, report: report, extraEnvironment: [:],
                    expectedPushes: item.expectAllDelivered == true ? item.pushCount : nil, quiet: true, selection: selection
                ) { mock in
                    instructions = try item.instructions(bundleID: mock.environment["APNS_MOCK_TOPIC"]!, now: Int(Date().timeIntervalSince1970))
                    try instructions.write(to: instructionFile)
                    try? FileManager.default.removeItem(at: resultsFile)
                    return ["APNS_MOCK_SCENARIO": instructionFile.path, "APNS_MOCK_SENDER_RESULTS": resultsFile.path]
                }
                ran += 1
                if let crossCheck = try Self.crossCheck(scenario: item.name, instructions: instructions, resultsFile: resultsFile, requests: outcome.requests) {
                    crossChecks.append(crossCheck)
                }
                if outcome.commandFailed { failedRuns.append("\(item.name) (adapter exit status \(outcome.commandExitStatus!))") }
                // Ids restart with each scenario's fresh mock: scenario k's request n is reported as k·10⁶ + n.
                let base = Int64(ran) * 1_000_000
                for var result in outcome.results where report.selection.includes(result.rule.id) {
                    result.rule.id = "\(item.name)/\(result.rule.id)"
                    for index in result.findings.indices { result.findings[index].requestIDs = result.findings[index].requestIDs.map { $0 + base } }
                    results.append(result)
                }
                requests += outcome.requests.map { var copy = $0; copy.id += base; return copy }
            } catch let error as RunnerError {
                printError("   not run: \(error)")
                for rule in ConformanceRule.all where selection.includes(rule.id) && report.selection.includes(rule.id) {
                    var renamed = rule
                    renamed.id = "\(item.name)/\(rule.id)"
                    results.append(.notApplicable(renamed, "scenario not run: \(error)"))
                }
            }
        }
        if ran == 0 {
            printError("apns-mock conformance sender: no scenario could run")
            throw ExitCode(2)
        }
        var combined = ConformanceReport(
            title: "apns-mock conformance sender --adapter \(adapter)", command: command,
            commandExitStatus: failedRuns.isEmpty ? 0 : 1, results: policy.apply(results), requests: [], policy: policy)
        combined.requests = requests
        combined.crossChecks = crossChecks
        print(combined.terminalText(), terminator: "")
        if !failedRuns.isEmpty { print("adapter failed in: \(failedRuns.joined(separator: ", "))") }
        do { try report.write(combined) } catch {
            printError("apns-mock conformance sender: \(error)")
            throw ExitCode(2)
        }
        throw ExitCode(combined.exitStatus)
    }

    /// The adapter's report of what the library said for each push compared with what the mock recorded; nil when
    /// the adapter wrote no results file (a shell command that does not know APNS_MOCK_SENDER_RESULTS).
    static func crossCheck(scenario: String, instructions: Data, resultsFile: URL, requests: [ObservedRequest]) throws -> SenderCrossCheck? {
        guard let data = try? Data(contentsOf: resultsFile) else { return nil }
        struct Instructions: Decodable {
            struct Push: Decodable { var deviceToken, payload: String }
            var pushes: [Push]
        }
        do {
            let pushes = try JSONDecoder().decode(Instructions.self, from: instructions).pushes
            return SenderCrossCheck.compare(
                scenario: scenario, outcomes: try SenderCrossCheck.parseOutcomes(data),
                instructions: pushes.map { ($0.deviceToken, $0.payload) }, requests: requests)
        } catch {
            throw RunnerError("the adapter's results file \(resultsFile.path) is not one JSON object a line {\"index\", \"success\", \"said\"}: \(error)")
        }
    }

    /// `Conformance/...` in the current directory: the scenarios, adapters and case tables are files of an
    /// apns-mock checkout, not part of the binary (the commands name the directory when it is missing).
    static func repositoryFile(_ relative: String) -> URL {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(relative)
    }

    static func adapterNames() -> [String] {
        let directory = repositoryFile("Conformance/adapters")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && !$0.contains(".") && FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent($0).path) }.sorted()
    }

    static func adapterCommand(_ adapter: String) -> [String] {
        let named = repositoryFile("Conformance/adapters").appendingPathComponent(adapter)
        if !adapter.contains("/"), !adapter.contains(" "), FileManager.default.isExecutableFile(atPath: named.path) {
            return [named.path]
        }
        return ["/bin/sh", "-c", adapter]
    }
}
