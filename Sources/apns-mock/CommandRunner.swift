import Foundation

/// Runs the command under test with the mock's environment. Its standard output and standard error both go to
/// the runner's standard error, so the runner's standard output carries the report alone (docs/conformance.md).
enum CommandRunner {
    struct NotFound: Error, CustomStringConvertible { let description: String }

    /// The executable for `name`: a path as given, or the first match on PATH.
    static func resolve(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> URL? {
        let manager = FileManager.default
        if name.contains("/") {
            return manager.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil
        }
        for directory in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            var isDirectory: ObjCBool = false
            if manager.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue, manager.isExecutableFile(atPath: candidate) {
                return URL(fileURLWithPath: candidate)
            }
        }
        return nil
    }

    /// Exit status of the command (128 + N when killed by signal N).
    static func run(_ command: [String], environment extra: [String: String]) throws -> Int32 {
        guard let name = command.first else { throw NotFound(description: "no command given after --") }
        guard let executable = resolve(name) else { throw NotFound(description: "command not found: \(name)") }
        let process = Process()
        process.executableURL = executable
        process.arguments = Array(command.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
        process.standardOutput = FileHandle.standardError
        do {
            try process.run()
        } catch {
            throw NotFound(description: "cannot run \(name): \(error.localizedDescription)")
        }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }
}
