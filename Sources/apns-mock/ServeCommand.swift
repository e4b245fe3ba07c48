import APNSCore
import APNSMock
import APNSStore
import ArgumentParser
import Foundation

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the mock APNs (HTTP/2 over TLS, optional h2c) and its admin API.",
        discussion: """
            With no flags: TLS HTTP/2 on 127.0.0.1:2197 with the TEST-ONLY certificate of certs/, the admin API and \
            web inspector on 127.0.0.1:2198, and the sample team TEAM123456 with key ABC123DEFG \
            (certs/AuthKey_ABC123DEFG.p8) and bundle com.example.app. Flags override --config. Once every port is \
            bound, one JSON line {"event":"listening",...} on standard output gives the ports (0 = a free port).
            """
    )

    /// The listener, store, key and Live Activity options, shared with `apns-mock check`.
    @OptionGroup var options: ServeOptions

    @Flag(help: "Strict mode: warnings and device-level Live Activity drops are answered with HTTP 400 and a mock-specific reason (NOT APNs behaviour).")
    var strict = false

    @Flag(help: "If the delivery store fails its check at start-up: move it aside (never deleted), copy every readable delivery into a fresh store, report how many were kept and lost, and serve.")
    var recover = false

    func run() throws {
        var configuration = try options.config.map(MockConfiguration.load(path:)) ?? MockConfiguration()
        try apply(to: &configuration)
        SignalWaiter.blockShutdownSignals()
        let server: MockServer
        do {
            server = try MockServer(configuration: configuration, recoverStore: recover)
        } catch DeliveryStoreError.damaged(let path, let detail) {
            throw CommandFailure.usage(Self.damagedStoreMessage(path: path, detail: detail))
        }
        if let recovery = server.storeRecovery {
            FileHandle.standardError.write(Data("apns-mock: \(recovery.summary)\n".utf8))
        }
        for note in server.storeNotes {
            FileHandle.standardError.write(Data("apns-mock: \(note)\n".utf8))
        }
        let announcement = try server.start()
        FileHandle.standardOutput.write(Data((announcement.line() + "\n").utf8))
        if !server.activitySchemaNames.isEmpty {
            FileHandle.standardError.write(Data(
                "apns-mock: Live Activity schemas: \(server.activitySchemaNames.joined(separator: ", "))\n".utf8))
        }
        for problem in server.activitySourceProblems {
            FileHandle.standardError.write(Data("apns-mock: activity source: \(problem)\n".utf8))
        }
        let signal = SignalWaiter.wait()
        FileHandle.standardError.write(Data("apns-mock: signal \(signal), shutting down gracefully\n".utf8))
        server.shutdown()
    }

    /// The refusal when the store fails its check: the file, what was found, and the ways on.
    static func damagedStoreMessage(path: String, detail: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return "the delivery store \(path) is damaged (\(detail)). Nothing was changed. Start again with --recover to "
            + "move it aside to \(path).damaged-<time> (it is never deleted) and copy every delivery that can still "
            + "be read into a fresh store; `apns-mock deliveries --data-dir \(directory)` reads what is left meanwhile"
    }

    func apply(to configuration: inout MockConfiguration) throws {
        try options.apply(to: &configuration)
        if strict {
            configuration.rules.strictAll = true
            configuration.liveActivities.strict = true
        }
    }
}

extension APNsEnvironment: ExpressibleByArgument {}

