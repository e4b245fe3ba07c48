import APNSCommandLine
import APNSCore
import APNSStore
import ArgumentParser
import Foundation

/// Where `deliveries` and `explain` read from: a running server's admin API, or the store file with `--data-dir`.
struct DeliverySourceOptions: ParsableArguments {
    @Option(name: .customLong("admin-host"), help: "Host of the running server's admin API.")
    var adminHost = "127.0.0.1"

    @Option(name: .customLong("admin-port"), help: "Port of the running server's admin API.")
    var adminPort = 2198

    @Option(name: .customLong("admin-token"),
            help: "Bearer token of the admin API (default: $APNS_MOCK_ADMIN_TOKEN).")
    var adminToken: String?

    @Option(name: .customLong("data-dir"),
            help: "Read the store file in this directory instead of asking a server (works when none runs).")
    var dataDirectory: String?

    /// The store file with `--data-dir`, else the running server's admin API: either is read the same way.
    func open() throws -> any DeliveryReader {
        if let dataDirectory {
            return try SQLiteDeliveryArchive(directory: dataDirectory)
        }
        let token = adminToken ?? ProcessInfo.processInfo.environment["APNS_MOCK_ADMIN_TOKEN"]
        return AdminClient(host: adminHost, port: adminPort, bearerToken: token)
    }
}

/// `apns-mock deliveries`: what the mock received and answered, as a table or JSON Lines.
struct DeliveriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliveries",
        abstract: "List the pushes the mock received, with its verdict and why.",
        discussion: """
            Prints the newest deliveries oldest-first as an aligned table (colour only on a terminal, never with \
            NO_COLOR). --follow keeps printing new ones as they arrive (long poll on the admin API). \
            --json prints one JSON object per line instead.
            """)

    @OptionGroup var source: DeliverySourceOptions

    @Option(help: "Device token.") var token: String?
    @Option(help: "apns-topic.") var topic: String?
    @Option(name: .customLong("push-type"), help: "apns-push-type.") var pushType: String?
    @Option(help: "HTTP status answered.") var status: Int?
    @Option(help: "Reason, e.g. BadDeviceToken.") var reason: String?
    @Flag(help: "Only accepted (200) pushes.") var accepted = false
    @Flag(help: "Only rejected pushes.") var rejected = false
    @Option(help: "What the simulated device did with a Live Activity push: applied, ignored, dropped or throttled.")
    var device: DeviceHandling?
    @Option(help: "Received at or after (epoch ms or ISO 8601).") var since: String?
    @Option(help: "Received before (epoch ms or ISO 8601).") var until: String?
    @Option(name: [.short, .customLong("query")], help: "Text anywhere in the delivery (payload, explanation, ...).")
    var text: String?
    @Option(help: "How many of the newest deliveries to show.") var limit = 50
    @Flag(help: "Print JSON Lines instead of a table.") var json = false
    @Flag(help: "Keep running and print deliveries as they arrive.") var follow = false

    func validate() throws {
        if accepted && rejected { throw ValidationError("--accepted and --rejected exclude each other") }
        if limit < 0 { throw ValidationError("--limit must not be negative") }
    }

    func filter() throws -> DeliveryFilter {
        DeliveryFilter(
            token: token, topic: topic, pushType: pushType, status: status, reason: reason,
            accepted: accepted ? true : (rejected ? false : nil),
            since: try since.map { try DeliveryFilter.parseTime($0, name: "--since") },
            until: try until.map { try DeliveryFilter.parseTime($0, name: "--until") }, text: text, device: device)
    }

    func run() throws {
        let filter = try filter()
        let source = try source.open()
        let style = TerminalStyle.current()
        let page = try source.deliveryPage(DeliveryQuery(filter: filter, limit: limit))
        Self.reportUndecodable(page.undecodable)
        let records = page.records.reversed()
        var lastID = try records.last?.id ?? source.newestID()
        // --follow prints rows long after the header: fixed column widths keep them under it.
        let widths = follow ? DeliveryTable.followWidths(for: Array(records)) : nil
        if records.isEmpty && !follow {
            // Said on standard error for --json, so the JSON Lines stream stays empty.
            let message = "No deliveries\(filter == .all ? "" : " match the filter") (newest \(limit) looked at)."
            if json { FileHandle.standardError.write(Data((message + "\n").utf8)) } else { emit(message) }
            return
        }
        emit(render(Array(records), style: style, header: true, widths: widths))
        guard follow else { return }
        while true {
            let fresh = try source.next(filter, after: lastID, timeout: .seconds(30))
            guard let last = fresh.last else { continue }
            lastID = last.id
            emit(render(fresh, style: style, header: false, widths: widths))
        }
    }

    /// Says on standard error which stored rows were left out because they could not be decoded (the output
    /// stays deliveries only).
    static func reportUndecodable(_ rows: [UndecodableDelivery]) {
        guard !rows.isEmpty else { return }
        let listed = rows.prefix(10).map { "\($0.id) (\($0.error))" }.joined(separator: ", ")
        let more = rows.count > 10 ? " and \(rows.count - 10) more" : ""
        FileHandle.standardError.write(Data(
            ("apns-mock: \(rows.count) stored deliver\(rows.count == 1 ? "y" : "ies") could not be decoded and "
                + "\(rows.count == 1 ? "was" : "were") left out: \(listed)\(more)\n").utf8))
    }

    /// Unbuffered, so `--follow` output reaches a pipe at once.
    private func emit(_ text: String) {
        guard !text.isEmpty else { return }
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    private func render(_ records: [DeliveryRecord], style: TerminalStyle, header: Bool, widths: [Int]?) -> String {
        if json {
            return records.map { String(decoding: $0.jsonBytes(providerTokenAsObjects: true), as: UTF8.self) }.joined(separator: "\n")
        }
        return DeliveryTable.render(records, style: style, header: header, widths: widths)
    }
}

extension DeviceHandling: ExpressibleByArgument {}
