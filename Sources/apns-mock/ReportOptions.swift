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

    @Flag(help: "Fail on warnings too.")
    var strict = false

    @Flag(help: "List the rules (and scenarios) without running anything.")
    var list = false

    var selection: RuleSelection { RuleSelection(only: only, skip: skip) }

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
