import ArgumentParser

/// `apns-mock conformance …`: grade other APNs implementations (senders here; servers in their own subcommand).
struct ConformanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Conformance suites: grade a sender library through named scenarios, or a server through the case table.",
        subcommands: [ConformanceSenderCommand.self, ConformanceServerCommand.self]
    )
}
