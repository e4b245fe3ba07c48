import ArgumentParser

@main
struct APNSMockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apns-mock",
        abstract: "A mock Apple Push Notification service that answers exactly as APNs would, explains why, and records every push.",
        version: APNSMockVersion.current,
        subcommands: [ServeCommand.self, DeliveriesCommand.self, ExplainCommand.self, KeygenCommand.self, CheckCommand.self, ConformanceCommand.self, PushCommand.self, LintCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
