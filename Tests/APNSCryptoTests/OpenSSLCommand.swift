import Foundation

/// Runs the `openssl` command line (and shell recipes around it) the way Apple's documentation does.
enum OpenSSLCommand {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `openssl arguments…` and returns its standard output.
    static func run(_ arguments: [String], input: Data? = nil) throws -> String {
        String(decoding: try runBinary(arguments, input: input), as: UTF8.self)
    }

    /// Runs `openssl arguments…` and returns its standard output as bytes.
    static func runBinary(_ arguments: [String], input: Data? = nil) throws -> Data {
        try execute("/usr/bin/env", ["openssl"] + arguments, environment: [:], input: input)
    }

    /// Runs `script` with `/bin/sh -c`, with `environment` added, and returns its standard output.
    static func shell(_ script: String, environment: [String: String]) throws -> String {
        String(decoding: try execute("/bin/sh", ["-c", script], environment: environment, input: nil), as: UTF8.self)
    }

    /// A new empty directory under the system's temporary directory; the caller removes it.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("apns-auth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func execute(
        _ executable: String, _ arguments: [String], environment: [String: String], input: Data?
    ) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(errorText)")
        }
        return data
    }
}
