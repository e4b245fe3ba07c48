import APNSConformance
import ArgumentParser
import Foundation

/// Rule selection and report files, shared by `check` and `conformance sender`.
struct ReportOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write the report as JSON to this file.", valueName: "file"))
    var json: String?

    @Option(help: ArgumentHelp("Write the report as JUnit XML to this file.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Write the report as an HTML page to this file.", valueName: "file"))
    var html: String?

    @Option(help: ArgumentHelp("Grade only rules whose name starts with this (repeatable).", valueName: "prefix"))
    var only: [String] = []

    @Option(help: ArgumentHelp("Do not grade rules whose name starts with this (repeatable).", valueName: "prefix"))
    var skip: [String] = []

    @Option(name: .customLong("min-backoff-ms"), help: ArgumentHelp("A retry after 429/500/503 sooner than this is no back-off (default 100).", valueName: "ms"))
    var minimumBackoffMilliseconds: Int64 = 100

    @Flag(help: "Fail on warnings too (the same as --fail-on warn).")
    var strict = false

    @Option(name: .customLong("fail-on"), help: ArgumentHelp("What fails the run: fail (default) or warn (warnings too).", valueName: "fail|warn"))
    var failOn: String?

    @Option(help: ArgumentHelp("Change a rule's severity (repeatable): warn demotes its failures, fail promotes its warnings, skip leaves it ungraded.", valueName: "rule=warn|fail|skip"))
    var severity: [String] = []

    @Option(name: .customLong("expect-fail"), help: ArgumentHelp("A rule expected to fail (repeatable): its failure does not fail the run; its passing does.", valueName: "rule"))
    var expectFail: [String] = []

    @Option(help: ArgumentHelp("A grading file: {\"failOn\": \"warn\", \"severity\": {\"RULE\": \"warn\"}, \"expectFail\": [\"RULE\"]}; the flags apply on top.", valueName: "file"))
    var grading: String?

    @Flag(help: "List the rules (and scenarios) without running anything.")
    var list = false

    var selection: RuleSelection { RuleSelection(only: only, skip: skip) }

    /// The grading file's choices with the flags on top; a bad file, level or rule name is a usage error.
    func policy() throws -> GradingPolicy {
        do {
            var fromFile = GradingPolicy()
            if let grading {
                let data: Data
                do { data = try Data(contentsOf: URL(fileURLWithPath: grading)) } catch {
                    throw GradingPolicy.Problem("cannot read --grading \(grading): \(error.localizedDescription)")
                }
                fromFile = try GradingPolicy.load(data, path: grading)
            }
            var flags = GradingPolicy(failOnWarnings: strict)
            switch failOn {
            case nil: break
            case "warn": flags.failOnWarnings = true
            case "fail": if strict { throw GradingPolicy.Problem("--fail-on fail contradicts --strict") }
            case let other?: throw GradingPolicy.Problem("--fail-on \(other): write fail or warn")
            }
            for text in severity {
                let (rule, level) = try GradingPolicy.parseSeverity(text)
                flags.severity[rule] = level
            }
            for rule in expectFail {
                try GradingPolicy.checkName(rule, option: "--expect-fail")
                flags.expectFail.append(rule)
            }
            if failOn == "fail" { fromFile.failOnWarnings = false }
            return fromFile.merged(with: flags)
        } catch let problem as GradingPolicy.Problem {
            throw CommandFailure.usage(problem.description)
        }
    }

    /// Every report file can be written: its folder exists and is a writable directory. Checked before the mock
    /// starts, so a typo costs no run.
    func checkOutputPaths() throws {
        for (option, path) in [("--json", json), ("--junit", junit), ("--html", html)] {
            guard let path else { continue }
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
                throw CommandFailure.usage("\(option) \(path): the folder \(folder) does not exist")
            }
            if !isDirectory.boolValue { throw CommandFailure.usage("\(option) \(path): \(folder) is not a folder") }
            if !FileManager.default.isWritableFile(atPath: folder) {
                throw CommandFailure.usage("\(option) \(path): the folder \(folder) is not writable")
            }
            var isFileADirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFileADirectory), isFileADirectory.boolValue {
                throw CommandFailure.usage("\(option) \(path) is a folder, not a file")
            }
        }
    }

    func write(_ report: ConformanceReport) throws {
        func save(_ text: String, _ path: String?) throws {
            guard let path else { return }
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                throw RunnerError("cannot write \(path): \(error.localizedDescription)")
            }
        }
        try save(report.jsonText(), json)
        try save(report.junitXML(), junit)
        try save(report.html(), html)
    }

    static func ruleList() -> String {
        ConformanceRule.all.map { "\($0.id.padding(toLength: 22, withPad: " ", startingAt: 0)) \($0.title) [\($0.sources.joined(separator: ", "))]\n    \($0.requirement)" }
            .joined(separator: "\n") + "\n"
    }
}

/// The runner could not run (exit status 2): bad options, command not found, mock could not start.
struct RunnerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
