import HTTP2
import APNSCommandLine
import APNSConformance
import APNSJSON
import APNSCore
import APNSCrypto
import APNSMock
import APNSStore
import ArgumentParser
import Foundation

/// `apns-mock conformance server URL`: replays the device-push case table against any APNs-compatible endpoint
/// and grades status, reason and headers case by case.
struct ConformanceServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Grade an APNs-compatible server: replay Conformance/cases/device-push.json and compare the answers.",
        discussion: """
            Each case goes out on its own HTTP/2 connection with a provider token signed by --key-file (default: \
            the sample key, team TEAM123456, key ABC123DEFG, which the cases assume). Cases that need set-up the \
            server cannot be given from outside (declared tokens, rule switches, certificate-style servers, other \
            teams' keys) are reported as skipped with the reason. A server that speaks only HTTP/1.1 fails the \
            transport check and no case is graded. Exit status: 0 every graded case passed, 1 a case failed or the \
            server is not HTTP/2, 2 the runner could not run (bad flags, unreadable files, no connection).
            """
    )

    @Argument(help: ArgumentHelp("The server: https://HOST[:PORT] (TLS, ALPN h2) or http://HOST[:PORT] (h2c).", valueName: "url"))
    var url: String

    @Option(name: .customLong("ca-file"), help: ArgumentHelp("PEM CA to trust (default: the mock's dev CA on loopback, the system store otherwise).", valueName: "pem"))
    var caFile: String?
    @OptionGroup var signingKey: SigningKeyOptions
    @Option(name: .customLong("production-url"), help: ArgumentHelp("The same server's production endpoint, for the production cases.", valueName: "url"))
    var productionURL: String?
    @Option(name: .customLong("manage-url"), help: ArgumentHelp("The same server's channel-management endpoint, for the broadcast cases (--cases Conformance/cases/broadcast.json).", valueName: "url"))
    var manageURL: String?
    @Option(name: .customLong("admin-url"), help: ArgumentHelp("An apns-mock admin API: also compare the warnings each delivery record carries.", valueName: "url"))
    var adminURL: String?
    @Option(help: ArgumentHelp("The case table (default Conformance/cases/device-push.json).", valueName: "file"))
    var cases: String?
    @Option(help: ArgumentHelp("Run only cases whose id starts with this (repeatable).", valueName: "prefix"))
    var only: [String] = []
    @Option(help: ArgumentHelp("Skip cases whose id starts with this (repeatable).", valueName: "prefix"))
    var skip: [String] = []
    @Option(help: ArgumentHelp("Write the report as JSON to this file.", valueName: "file"))
    var json: String?
    @Option(help: ArgumentHelp("Write the report as JUnit XML to this file.", valueName: "file"))
    var junit: String?
    @Option(help: ArgumentHelp("Seconds to wait for each connection and answer.", valueName: "s"))
    var timeout: Double = 10

    func run() throws {
        guard let endpoint = HTTP2Endpoint(url: url) else { throw CommandFailure.usage("cannot read the URL \(url): write https://HOST[:PORT] or http://HOST[:PORT]") }
        var production: HTTP2Endpoint?
        if let productionURL {
            guard let parsed = HTTP2Endpoint(url: productionURL) else { throw CommandFailure.usage("cannot read --production-url \(productionURL)") }
            production = parsed
        }
        let table = try loadCases()
        let signer = try loadSigner()
        var runner = ServerCaseRunner(
            endpoint: endpoint, production: production, tls: tlsConfiguration(for: endpoint), signer: signer,
            timeout: timeout, admin: adminURL.map { AdminHTTP(baseURL: $0) })
        if let manageURL {
            guard let parsed = HTTP2Endpoint(url: manageURL) else { throw CommandFailure.usage("cannot read --manage-url \(manageURL)") }
            runner.manage = parsed
        }
        let report: ServerConformanceReport
        do {
            report = try runner.run(table)
        } catch let error as HTTP2ClientError {
            printError("apns-mock conformance server: \(error)")
            throw ExitCode(CommandExit.usageOrConnection)
        }
        print(report.terminalText(), terminator: "")
        do {
            if let json { try report.jsonData().write(to: URL(fileURLWithPath: json)) }
            if let junit { try Data(report.junitXML().utf8).write(to: URL(fileURLWithPath: junit)) }
        } catch {
            throw CommandFailure.usage("cannot write the report: \(error.localizedDescription)")
        }
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }

    func loadCases() throws -> [ServerCase] {
        let path = cases ?? ConformanceSenderCommand.repositoryFile("Conformance/cases/device-push.json").path
        let all: [ServerCase]
        do {
            all = try ServerCase.loadTable(Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw CommandFailure.usage("cannot read the case table \(path) (run it in an apns-mock checkout, or give --cases FILE): \(error)")
        }
        let selected = all.filter { item in
            (only.isEmpty || only.contains { item.id.hasPrefix($0) }) && !skip.contains { item.id.hasPrefix($0) }
        }
        if selected.isEmpty { throw CommandFailure.usage("no case matches --only/--skip") }
        return selected
    }

    func loadSigner() throws -> ProviderTokenSigner {
        let environment = ProcessInfo.processInfo.environment
        let path = signingKey.keyFile ?? environment["APNS_MOCK_KEY_FILE"] ?? DefaultCredentials.signingKey
        let kid = signingKey.keyID ?? signingKey.keyFile.flatMap(PushTargetResolver.keyIDFromFileName) ?? environment["APNS_MOCK_KEY_ID"] ?? DefaultCredentials.keyID
        let team = signingKey.teamID ?? environment["APNS_MOCK_TEAM_ID"] ?? DefaultCredentials.teamID
        do {
            return ProviderTokenSigner(teamID: team, keyID: kid, key: try ES256PrivateKey(pem: String(contentsOfFile: path, encoding: .utf8)))
        } catch {
            throw CommandFailure.usage("signing key \(path): \(error)")
        }
    }

    func tlsConfiguration(for endpoint: HTTP2Endpoint) -> TLSClientConfiguration {
        let loopback = ["localhost", "127.0.0.1", "::1"].contains(endpoint.host.lowercased())
        let ca = caFile ?? ProcessInfo.processInfo.environment["APNS_MOCK_CA_FILE"] ?? (loopback ? DefaultCredentials.certificateAuthority : nil)
        // http/1.1 is offered too, so that a server that speaks only HTTP/1.1 can say so in ALPN.
        return TLSClientConfiguration(caFile: ca, offerHTTP11: true)
    }
}

/// Sends each case on its own connection and grades the answer.
struct ServerCaseRunner {
    let endpoint: HTTP2Endpoint
    let production: HTTP2Endpoint?
    let tls: TLSClientConfiguration
    let signer: ProviderTokenSigner
    let timeout: Double
    let admin: AdminHTTP?
    /// The channel-management endpoint, for broadcast cases (`--manage-url`).
    var manage: HTTP2Endpoint?
    private var validToken: String?
    private var connected = false

    init(endpoint: HTTP2Endpoint, production: HTTP2Endpoint?, tls: TLSClientConfiguration, signer: ProviderTokenSigner, timeout: Double, admin: AdminHTTP?) {
        self.endpoint = endpoint
        self.production = production
        self.tls = tls
        self.signer = signer
        self.timeout = timeout
        self.admin = admin
    }

    /// Throws only when the very first connection cannot be made (the runner cannot run).
    mutating func run(_ cases: [ServerCase]) throws -> ServerConformanceReport {
        var results: [ServerCaseResult] = []
        for (position, item) in cases.enumerated() {
            switch ServerCasePlan.plan(item, hasProductionURL: production != nil, hasManageURL: manage != nil) {
            case .skip(let why):
                results.append(ServerCaseResult(id: item.id, title: item.title, source: item.source, verdict: .skip, messages: [why]))
            case .send(let authorization, let isProduction):
                do {
                    results.append(try BroadcastCaseGrader.isBroadcastCase(item)
                        ? gradeBroadcast(item, authorization: authorization)
                        : grade(item, authorization: authorization, on: isProduction ? production! : endpoint))
                } catch let error as HTTP2ClientError {
                    if case .notHTTP2(let message) = error {
                        let rest = cases[position...].filter { item in !results.contains { $0.id == item.id } }.map {
                            ServerCaseResult(id: $0.id, title: $0.title, source: $0.source, verdict: .skip, messages: ["not run: the server does not speak HTTP/2"])
                        }
                        return ServerConformanceReport(url: endpoint.description, results: results + rest, transportProblem: message)
                    }
                    if !connected { throw error }
                    results.append(ServerCaseResult(id: item.id, title: item.title, source: item.source, verdict: .fail, messages: ["\(error)"]))
                }
            }
        }
        return ServerConformanceReport(url: endpoint.description, results: results)
    }

    private mutating func grade(_ item: ServerCase, authorization: ServerCasePlan.Authorization, on endpoint: HTTP2Endpoint) throws -> ServerCaseResult {
        let connection = try HTTP2ClientConnection(endpoint: endpoint, tls: tls, timeout: timeout)
        connected = true
        defer { connection.close() }
        var headers = item.request.headerPairs.map { HeaderField($0.name, $0.value) }
        let now = SystemClock().now()
        var token: String?
        do {
            switch authorization {
            case .valid:
                if validToken == nil { validToken = try signer.token(issuedAt: now) }
                token = validToken
            case .none: token = nil
            case .badSignature:
                let parts = try signer.token(issuedAt: now).split(separator: ".")
                token = "\(parts[0]).\(parts[1]).\(String(parts[2].reversed()))"
            case .expired: token = try signer.token(issuedAt: now.adding(seconds: -7200))
            case .secondTokenTooSoon:
                let bind = HTTP2Request(
                    path: "/3/device/" + String(repeating: "ab", count: 32),
                    headers: [HeaderField("authorization", "bearer \(try signer.token(issuedAt: now.adding(seconds: -60)))"),
                              HeaderField("apns-topic", "com.example.app"), HeaderField("apns-push-type", "alert")],
                    body: Array(#"{"aps":{"alert":"bind"}}"#.utf8))
                let bound = send(bind, on: connection)
                guard case .success(let answer) = bound, answer.status == 200 else {
                    return ServerCaseResult(id: item.id, title: item.title, source: item.source, verdict: .fail,
                                            messages: ["the push that binds the connection's first token was answered \(Self.describe(bound))"])
                }
                token = try signer.token(issuedAt: now)
            }
        } catch {
            return ServerCaseResult(id: item.id, title: item.title, source: item.source, verdict: .fail, messages: ["cannot sign a token: \(error)"])
        }
        if let token, !headers.contains(where: { $0.name == "authorization" }) {
            headers.insert(HeaderField("authorization", "bearer \(token)"), at: 0)
        }
        let request = HTTP2Request(method: item.request.method ?? "POST", path: item.request.path, headers: headers, body: item.request.bodyBytes)
        let result = send(request, on: connection)
        guard case .success(let response) = result else {
            return ServerCaseResult(id: item.id, title: item.title, source: item.source, verdict: .fail, messages: ["no answer: \(Self.describe(result))"])
        }
        return graded(item, response, grader: ServerCaseGrader.problems, idHeader: "apns-id")
    }

    func send(_ request: HTTP2Request, on connection: HTTP2ClientConnection) -> Result<HTTP2Response, HTTP2StreamFailure> {
        var sent = false
        var outcome: Result<HTTP2Response, HTTP2StreamFailure> = .failure(HTTP2StreamFailure(.connectionLost, "the connection ended"))
        let end = connection.exchange(maxInFlight: 1, requestTimeout: timeout) {
            if sent { return .done }
            sent = true
            return .request(tag: 1, request)
        } completed: { _, result in
            outcome = result
        }
        if case .closed(let error) = end, case .failure = outcome {
            return .failure(HTTP2StreamFailure(.connectionLost, "\(error)"))
        }
        return outcome
    }

    static func describe(_ result: Result<HTTP2Response, HTTP2StreamFailure>) -> String {
        switch result {
        case .success(let response): return "\(response.status) \(String(decoding: response.body.prefix(200), as: UTF8.self))"
        case .failure(let failure): return failure.message
        }
    }

    /// The delivery record's warnings (other modules' codes aside: jwt-, auth-, la-) against the case's.
    static func warningProblems(admin: AdminHTTP, apnsID: String, expected: [String]) -> [String] {
        guard let (status, body) = try? admin.request("GET", "/api/deliveries/\(apnsID)"), status == 200,
              let record = try? JSONDecoding.decode(DeliveryRecord.self, from: body) else {
            return ["no delivery record for apns-id \(apnsID) at \(admin.baseURL)"]
        }
        let codes = record.warnings.map(\.code)
            .filter { !$0.hasPrefix("jwt-") && !$0.hasPrefix("auth-") && !$0.hasPrefix("la-") }.sorted()
        return codes == expected.sorted() ? [] : ["warnings \(codes), expected \(expected.sorted())"]
    }
}
