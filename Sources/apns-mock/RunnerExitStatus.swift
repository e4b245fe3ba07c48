import ArgumentParser
import Foundation

extension APNSMockCommand {
    /// As ArgumentParser's own `main`, except that a usage error of the runners (`check`, `conformance sender`)
    /// exits 2, as their documentation promises (0 pass, 1 a rule failed, 2 the runner could not run).
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            let runner = arguments.first == "check" || (arguments.first == "conformance" && arguments.dropFirst().first == "sender")
            if runner, exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
