import APNSJSON
import APNSCommandLine
import APNSCore
import APNSMock
import ArgumentParser
import Foundation

/// `apns-mock lint payload.json|-`: the server's rules and Live Activity checks, offline.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check a push payload offline with the mock's rules and Live Activity device.",
        discussion: """
            Prints what APNs would answer, the warnings, and for a Live Activity push what the device would do. \
            The provider token is not checked. --attributes-type names the activity's type for an update or end \
            (the schema its start chose). Exit status: 0 APNs would accept the push and the device apply it \
            (warnings may be printed), 1 APNs would reject it or the device would drop, ignore or throttle it \
            (or --event / --attributes-type do not match), 2 a usage error.
            """
    )

    @Argument(help: ArgumentHelp("The payload file, or - for standard input.", valueName: "payload.json|-"))
    var payload: String

    @OptionGroup var headers: PushHeaderOptions
    @Option(name: .customLong("activity-source"), help: ArgumentHelp("Swift file or folder declaring ActivityAttributes types (repeatable).", valueName: "path"))
    var activitySources: [String] = []
    @Option(name: .customLong("activity-schema"), help: ArgumentHelp("JSON Live Activity schema file (repeatable).", valueName: "file"))
    var activitySchemas: [String] = []
    @Option(help: ArgumentHelp("The event the payload must be: start|update|end.", valueName: "event"))
    var event: String?
    @Option(name: .customLong("attributes-type"), help: ArgumentHelp("The activity's attributes type (schema of an update or end).", valueName: "type"))
    var attributesType: String?
    @Flag(help: "Print the result as JSON.") var json = false

    static let sampleToken = "8096c2f1a3b4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e"

    func validate() throws {
        if let event, !["start", "update", "end"].contains(event) { throw ValidationError("--event is start, update or end, not \(event)") }
    }

    func run() throws {
        let bytes: [UInt8]
        do {
            bytes = payload == "-" ? Array(FileHandle.standardInput.readDataToEndOfFile()) : Array(try Data(contentsOf: URL(fileURLWithPath: payload)))
        } catch {
            throw CommandFailure.usage("cannot read \(payload): \(error.localizedDescription)")
        }
        let type = headers.pushType.flatMap(PushType.init(rawValue:)) ?? Self.inferredPushType(bytes)
        var input = PayloadLinter.Input(
            payload: bytes, pushType: type, topic: headers.topic ?? (headers.bundleID ?? DefaultCredentials.bundleID) + type.topicSuffix,
            deviceToken: headers.deviceToken ?? Self.sampleToken, now: SystemClock().now())
        input.priority = headers.priority
        input.expiration = headers.expiration
        input.expectedEvent = event
        input.attributesType = attributesType
        var settings = MockConfiguration.LiveActivitySettings()
        settings.sources = activitySources
        settings.schemaFiles = activitySchemas
        let result: PayloadLinter.Result
        do { result = try PayloadLinter.lint(input, liveActivities: settings) } catch {
            throw CommandFailure.usage("\(error)")
        }
        print(json ? Self.jsonText(result, input: input) : Self.text(result, input: input, inferred: headers.pushType == nil, style: TerminalStyle.current()))
        if !result.passes { throw ExitCode(CommandExit.notFoundOrRejected) }
    }

    /// `liveactivity` when the payload has `aps.event`, else `alert`.
    static func inferredPushType(_ bytes: [UInt8]) -> PushType {
        let aps = JSONValue.parse(bytes)?["aps"]
        return aps?.isObject == true && aps?["event"] != nil ? .liveactivity : .alert
    }

    static func text(_ result: PayloadLinter.Result, input: PayloadLinter.Input, inferred: Bool, style: TerminalStyle) -> String {
        var lines: [String] = []
        let pushType = input.pushType?.rawValue ?? "alert"
        lines.append("push: \(pushType)\(inferred ? " (inferred)" : ""), topic \(input.topic), \(input.payload.count) bytes")
        if result.isAccepted {
            if result.deviceDropped {
                lines.append(style.paint("ACCEPTED · NOT APPLIED", .yellow) + "  APNs would answer 200, but the device would not apply it")
            } else {
                lines.append(style.paint("ACCEPTED", .green) + "  APNs would answer 200")
            }
        } else {
            lines.append(style.paint("REJECTED", .red) + "  APNs would answer \(result.status) \(result.reason ?? "")")
            if let explanation = result.explanation { lines.append("  \(explanation)") }
            if let rule = result.ruleID { lines.append("  rule: \(rule)") }
            if let fix = result.fix { lines.append("  how to fix: \(fix)") }
        }
        if let explanation = result.deviceExplanation { lines.append("device: \(explanation)") }
        for problem in result.problems { lines.append(style.paint("mismatch", .red) + ": \(problem)") }
        if !result.warnings.isEmpty {
            lines.append("warnings:")
            for warning in result.warnings { lines.append("  " + style.paint("⚠ \(warning.code)", .yellow) + ": \(warning.message)") }
        }
        for problem in result.schemaProblems { lines.append("activity sources: \(problem)") }
        return lines.joined(separator: "\n")
    }

    static func jsonText(_ result: PayloadLinter.Result, input: PayloadLinter.Input) -> String {
        var object: [JSONMember] = [
            JSONMember("pushType", .nullable(input.pushType?.rawValue)), JSONMember("topic", .string(input.topic)),
            JSONMember("status", .integer(result.status)), JSONMember("reason", .nullable(result.reason)),
            JSONMember("explanation", .nullable(result.explanation)), JSONMember("ruleID", .nullable(result.ruleID)),
            JSONMember("fix", .nullable(result.fix)),
            JSONMember("warnings", .warnings(result.warnings)),
            JSONMember("problems", .array(result.problems.map(JSONValue.string))),
            JSONMember("passes", .bool(result.passes)),
            JSONMember("schemas", .array(result.schemaTypes.map(JSONValue.string))),
        ]
        if let outcome = result.deviceOutcome {
            object.append(JSONMember("liveActivity", .object([
                JSONMember("code", .string(outcome)), JSONMember("explanation", .string(result.deviceExplanation ?? "")),
                JSONMember("applied", .bool(!result.deviceDropped)),
            ])))
        }
        return JSONValue.object(object).sortedCompactText
    }
}
