import APNSCommandLine
import APNSCore
import APNSCrypto
import APNSMock
import ArgumentParser
import Foundation

/// `apns-mock push`: sends a correct push to the local mock (default), any URL, or Apple's sandbox / production
/// APNs, and says what became of it.
struct PushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Send a push (any push type, Live Activity start/update/end from flags) and print APNs' answer.",
        discussion: """
            Target: the local mock at https://localhost:2197 by default (CA certs/dev-ca.pem, the sample key \
            certs/AuthKey_ABC123DEFG.p8, team TEAM123456, bundle com.example.app), --url URL (http:// is h2c), or \
            Apple's --sandbox / --production (system trust store; your key). Unset flags fall back to a --profile, \
            then to APNS_MOCK_URL, APNS_MOCK_CA_FILE, APNS_MOCK_KEY_FILE, APNS_MOCK_KEY_ID, APNS_MOCK_TEAM_ID, \
            APNS_MOCK_TOPIC (bundle ID) and APNS_MOCK_ADMIN_URL. \
            The topic is the bundle ID plus the push type's suffix (.push-type.liveactivity, .voip, …) unless \
            --topic is given. A Live Activity push gets aps.timestamp (seconds) unless --timestamp is given. \
            Exit status: 0 every push answered 200, 1 APNs rejected one, 2 a usage or connection error.
            """
    )

    // Target
    @Option(help: ArgumentHelp("Server URL: https://HOST[:PORT] (TLS, ALPN h2) or http://HOST[:PORT] (h2c).", valueName: "url"))
    var url: String?
    @Flag(help: "Apple's development APNs (api.sandbox.push.apple.com:443).") var sandbox = false
    @Flag(help: "Apple's production APNs (api.push.apple.com:443).") var production = false
    @Option(name: .customLong("ca-file"), help: ArgumentHelp("PEM file of the CA to trust (default: the mock's dev CA for the mock, the system store otherwise).", valueName: "pem"))
    var caFile: String?
    @Option(name: .customLong("admin-url"), help: ArgumentHelp("The mock's admin API, to print the explanation and device outcome (default: http://127.0.0.1:2198 for the default target).", valueName: "url"))
    var adminURL: String?

    // Credentials
    @OptionGroup var signingKey: SigningKeyOptions
    @Option(help: ArgumentHelp("A client certificate, PEM or .p12 (certificate-based authentication: no token is sent). apns-mock certgen makes one for the mock.", valueName: "file"))
    var cert: String?
    @Option(name: .customLong("cert-password"), help: ArgumentHelp("The password of a .p12 --cert.", valueName: "password"))
    var certPassword: String?
    @Option(name: .customLong("cert-key"), help: ArgumentHelp("The --cert certificate's private key, PEM (default: in the --cert file).", valueName: "pem"))
    var certKey: String?
    @Option(help: ArgumentHelp("A named target and key from the profiles file.", valueName: "name"))
    var profile: String?
    @Option(name: .customLong("profiles-file"), help: ArgumentHelp("Profiles file (default .apns-mock/profiles.json, then ~/.config/apns-mock/profiles.json).", valueName: "file"))
    var profilesFile: String?

    // What to send
    @OptionGroup var headers: PushHeaderOptions
    @Option(name: .customLong("collapse-id"), help: ArgumentHelp("apns-collapse-id (at most 64 bytes).", valueName: "id"))
    var collapseID: String?
    @Option(name: .customLong("apns-id"), help: ArgumentHelp("apns-id: a UUID.", valueName: "uuid"))
    var apnsID: String?
    @Option(help: ArgumentHelp("The JSON body from a file, or - for standard input (flags below are merged into its aps).", valueName: "file|-"))
    var payload: String?
    @Option(name: .customLong("alert-title"), help: ArgumentHelp("aps.alert.title", valueName: "text"))
    var alertTitle: String?
    @Option(name: .customLong("alert-body"), help: ArgumentHelp("aps.alert.body", valueName: "text"))
    var alertBody: String?

    // Live Activity
    @Option(help: ArgumentHelp("Live Activity event: start|update|end.", valueName: "event"))
    var event: String?
    @Option(name: .customLong("content-state"), help: ArgumentHelp("aps.content-state as JSON.", valueName: "json"))
    var contentState: String?
    @Option(name: .customLong("attributes-type"), help: ArgumentHelp("aps.attributes-type (start).", valueName: "type"))
    var attributesType: String?
    @Option(help: ArgumentHelp("aps.attributes as JSON (start).", valueName: "json"))
    var attributes: String?
    @Option(name: .customLong("stale-date"), help: ArgumentHelp("aps.stale-date, UNIX seconds.", valueName: "unix"))
    var staleDate: Int?
    @Option(name: .customLong("dismissal-date"), help: ArgumentHelp("aps.dismissal-date, UNIX seconds (end).", valueName: "unix"))
    var dismissalDate: Int?
    @Option(name: .customLong("relevance-score"), help: ArgumentHelp("aps.relevance-score.", valueName: "n"))
    var relevanceScore: Double?
    @Option(help: ArgumentHelp("aps.timestamp, UNIX seconds (default: now).", valueName: "unix"))
    var timestamp: Int?
    @Flag(name: .customLong("input-push-token"), help: "aps.input-push-token: 1 (start: the device sends the activity's update token).")
    var inputPushToken = false
    @Option(name: .customLong("input-push-channel"), help: ArgumentHelp("aps.input-push-channel (start, broadcast channel).", valueName: "id"))
    var inputPushChannel: String?

    @Option(help: ArgumentHelp("Broadcast to this channel (POST /4/broadcasts/apps/BUNDLE) instead of a device token.", valueName: "id"))
    var channel: String?

    // Many pushes
    @Option(name: .customLong("repeat"), help: ArgumentHelp("Send the push N times.", valueName: "n"))
    var repeatCount: Int = 1
    @Option(help: ArgumentHelp("Requests in flight per connection (never more than the server allows).", valueName: "n"))
    var concurrency: Int = 1
    @Option(help: ArgumentHelp("Connections to spread the pushes over: each sends an equal share (one that cannot connect hands its share to the others).", valueName: "k"))
    var connections: Int = 1
    @Option(help: ArgumentHelp("Send the pushes listed in a JSON file ({\"pushes\":[{\"deviceToken\",\"pushType\",\"topic\",\"priority\",\"payload\"},…]}) over the same connections and token.", valueName: "file"))
    var requests: String?
    @Option(help: ArgumentHelp("Times a push answered 429/500/503 is sent again, with back-off (0: never).", valueName: "n"))
    var retries: Int = 2
    @Option(help: ArgumentHelp("Seconds to wait for each answer.", valueName: "s"))
    var timeout: Double = 30

    @Flag(help: "One JSON object per answer on standard output.") var json = false

    func validate() throws {
        if repeatCount < 1 { throw ValidationError("--repeat is 1 or more") }
        if concurrency < 1 || concurrency > 10_000 { throw ValidationError("--concurrency is between 1 and 10000") }
        if connections < 1 || connections > 1000 { throw ValidationError("--connections is between 1 and 1000") }
        if retries < 0 { throw ValidationError("--retries is 0 or more") }
        if !(timeout > 0) { throw ValidationError("--timeout is a positive number of seconds") }
        if requests == nil, headers.deviceToken == nil, channel == nil { throw ValidationError("give --device-token HEX (or --channel ID, or --requests FILE)") }
        if channel != nil, headers.deviceToken != nil { throw ValidationError("--channel and --device-token do not go together") }
        if requests != nil, repeatCount > 1 { throw ValidationError("--repeat and --requests do not go together") }
        if let event, LiveActivityEventName(rawValue: event) == nil { throw ValidationError("--event is start, update or end, not \(event)") }
        if let priority = headers.priority, ![1, 5, 10].contains(priority) { throw ValidationError("--priority is 10, 5 or 1, not \(priority)") }
        if certKey != nil, cert == nil { throw ValidationError("--cert-key goes with --cert FILE") }
        if cert != nil, signingKey.keyFile != nil {
            throw ValidationError("--cert (certificate-based) and --key-file (token-based) are two ways to authenticate; choose one")
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let target: PushTarget
        do {
            target = try PushTargetResolver.resolve(targetFlags, environment: environment, defaults: Self.defaults)
        } catch { throw CommandFailure.usage("\(error)") }
        let pushes = try builtPushes(target: target)
        // With a client certificate the connection authenticates with it and no token is sent (A-CERT).
        let tokens = cert == nil ? try tokenCache(target) : nil
        var tls = target.tls
        tls.clientCertificateFile = cert
        tls.clientKeyFile = certKey
        tls.clientCertificatePassword = certPassword
        let sender = PushSender(configuration: PushSenderConfiguration(
            endpoint: target.endpoint, tls: tls, tokens: tokens, concurrency: concurrency, connections: connections,
            retries: retries, requestTimeout: timeout))
        let count = pushes.count == 1 ? repeatCount : pushes.count
        let printer = PushPrinter(
            json: json, detailed: count <= 20, admin: target.adminURL.flatMap { PushAdminLookup(url: $0, quiet: target.adminURLIsGuess) },
            numbered: count > 1)
        let progress = PushProgress(total: count, sender: sender, enabled: count > 1)
        progress.start()
        let summary = sender.send(count: count, job: { pushes.count == 1 ? pushes[0] : pushes[$0] }) { outcome in
            progress.clearLine()
            printer.print(outcome)
        }
        progress.stop()
        if let error = summary.connectionError {
            printError("apns-mock push: \(error)")
        }
        if count > 1 || summary.connectionError == nil && summary.total == 0 {
            printer.printSummary(summary, endpoint: target.endpoint)
        }
        if summary.exitStatus != 0 { throw ExitCode(summary.exitStatus) }
    }

    var targetFlags: PushTargetFlags {
        var flags = PushTargetFlags()
        flags.url = url
        flags.sandbox = sandbox
        flags.production = production
        flags.caFile = caFile
        flags.keyFile = signingKey.keyFile
        flags.keyID = signingKey.keyID
        flags.teamID = signingKey.teamID
        flags.profile = profile
        flags.profilesFile = profilesFile
        flags.bundleID = headers.bundleID
        flags.adminURL = adminURL
        return flags
    }

    static var defaults: PushDefaults {
        PushDefaults(
            caFile: DefaultCredentials.certificateAuthority, keyFile: DefaultCredentials.signingKey,
            keyID: DefaultCredentials.keyID, teamID: DefaultCredentials.teamID, bundleID: DefaultCredentials.bundleID)
    }

    /// The notification the flags describe (the template of every `--requests` entry).
    func notification(bundleID: String?) throws -> PushNotification {
        var push = PushNotification(deviceToken: headers.deviceToken ?? "")
        push.pushType = headers.pushType.flatMap(PushType.init(rawValue:))
        push.bundleID = bundleID
        push.topic = headers.topic
        push.priority = headers.priority
        push.expiration = headers.expiration
        push.collapseID = collapseID
        push.apnsID = apnsID
        push.alertTitle = alertTitle
        push.alertBody = alertBody
        push.event = event.flatMap(LiveActivityEventName.init(rawValue:))
        push.contentState = contentState
        push.attributesType = attributesType
        push.attributes = attributes
        push.staleDate = staleDate
        push.dismissalDate = dismissalDate
        push.relevanceScore = relevanceScore
        push.timestamp = timestamp
        push.inputPushToken = inputPushToken
        push.inputPushChannel = inputPushChannel
        push.channelID = channel
        if let payload { push.payload = try Self.readInput(payload, what: "--payload") }
        return push
    }

    func builtPushes(target: PushTarget) throws -> [BuiltPush] {
        let template = try notification(bundleID: target.bundleID)
        let now = SystemClock().now()
        do {
            guard let requests else { return [try PushRequestBuilder.build(template, now: now)] }
            let data = Data(try Self.readInput(requests, what: "--requests"))
            let list = try PushRequestsFile.parse(data, defaults: template)
            if list.isEmpty { throw PushBuildError("--requests \(requests) lists no pushes") }
            return try list.map { (push: PushNotification) throws(PushBuildError) in try PushRequestBuilder.build(push, now: now) }
        } catch let error as PushBuildError {
            throw CommandFailure.usage("\(error)")
        }
    }

    func tokenCache(_ target: PushTarget) throws -> ProviderTokenCache? {
        guard let keyFile = target.keyFile, let keyID = target.keyID, let teamID = target.teamID else { return nil }
        let key: ES256PrivateKey
        do {
            let text = try String(contentsOfFile: keyFile, encoding: .utf8)
            key = try ES256PrivateKey(pem: text)
        } catch {
            throw CommandFailure.usage("signing key \(keyFile): \(error)")
        }
        return ProviderTokenCache(signer: ProviderTokenSigner(teamID: teamID, keyID: keyID, key: key))
    }

    static func readInput(_ path: String, what: String) throws -> [UInt8] {
        do {
            if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw CommandFailure.usage("\(what) \(path): \(error.localizedDescription)")
        }
    }
}
