import ArgumentParser
import Foundation

/// The exit codes of every subcommand (docs/cli.md, "Exit codes and conventions"): 0 success, 1 the thing asked
/// for was not found or the push was rejected, 2 a usage, configuration or connection error.
enum CommandExit {
    static let notFoundOrRejected: Int32 = 1
    static let usageOrConnection: Int32 = 2
}

/// A failure after the arguments parsed, printed as one line `apns-mock: <message>` (no usage text).
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    var code: Int32

    static func notFound(_ message: String) -> CommandFailure {
        CommandFailure(description: message, code: CommandExit.notFoundOrRejected)
    }

    static func usage(_ message: String) -> CommandFailure {
        CommandFailure(description: message, code: CommandExit.usageOrConnection)
    }
}

extension APNSMockCommand {
    /// Parses and runs like ArgumentParser's own `main`, but with the project's exit codes: usage errors exit 2
    /// (not 64), errors from `run` exit 2 unless they are a `CommandFailure` or an `ExitCode` that says otherwise.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as CommandFailure {
            FileHandle.standardError.write(Data("apns-mock: \(failure.description)\n".utf8))
            Foundation.exit(failure.code)
        } catch let code as ExitCode {
            exit(withError: code)
        } catch {
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            } else {
                FileHandle.standardError.write(Data("apns-mock: \(message(for: error))\n".utf8))
            }
            Foundation.exit(CommandExit.usageOrConnection)
        }
    }
}
