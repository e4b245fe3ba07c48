import APNSCommandLine
import APNSCore
import APNSStore
import ArgumentParser
import Foundation

/// `apns-mock explain <apns-id>`: everything about one delivery and why it got its answer.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain one delivery: verdict, reason, explanation, warnings, headers, JWT and payload.")

    @OptionGroup var source: DeliverySourceOptions

    @Argument(help: "The apns-id the mock answered with, or a delivery id.")
    var apnsID: String

    @Flag(help: "Print the delivery as JSON.") var json = false

    func run() throws {
        guard let record = try source.open().delivery(matching: apnsID) else {
            throw CommandFailure.notFound("no delivery with apns-id or id \(apnsID)")
        }
        if json {
            print(String(decoding: record.jsonBytes(providerTokenAsObjects: true), as: UTF8.self))
        } else {
            print(DeliveryExplanation.render(record, style: TerminalStyle.current()))
            if source.dataDirectory == nil {
                print("\nInspector: http://\(source.adminHost):\(source.adminPort)/#delivery=\(record.id)")
            }
        }
    }
}
