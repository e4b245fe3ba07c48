import HTTP2
import APNSCommandLine
import APNSCore
import APNSJSON
import APNSCrypto
import APNSMock
import ArgumentParser
import Foundation

/// `apns-mock channels create|list|get|delete`: the broadcast channel-management API (A-CHAN) of the mock's
/// management listener (`serve --manage-port`) or of Apple's management hosts, with a provider token.
struct ChannelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channels",
        abstract: "Create, list, read and delete broadcast channels (channel-management API, iOS 18 broadcast push).",
        discussion: """
            Target: the mock's management listener at https://localhost:2195 by default (serve --manage-port 2195), \
            or --url. Credentials as for push (--key-file, --key-id, --team-id, --bundle-id, --ca-file, --profile, \
            APNS_MOCK_* variables). Broadcast to a channel with: apns-mock push --channel ID --event update … \
            Exit status: 0 answered 2xx, 1 APNs refused (the reason is printed), 2 a usage or connection error.
            """,
        subcommands: [Create.self, List.self, Get.self, Delete.self]
    )

    struct Target: ParsableArguments {
        @Option(help: ArgumentHelp("Management URL (default https://localhost:2195; Apple: api-manage-broadcast.sandbox.push.apple.com:2195).", valueName: "url"))
        var url: String?
        @Option(name: .customLong("ca-file"), help: ArgumentHelp("PEM file of the CA to trust.", valueName: "pem"))
        var caFile: String?
        @Option(name: .customLong("key-file"), help: ArgumentHelp("The .p8 signing key.", valueName: "p8"))
        var keyFile: String?
        @Option(name: .customLong("key-id"), help: ArgumentHelp("Its key ID.", valueName: "kid"))
        var keyID: String?
        @Option(name: .customLong("team-id"), help: ArgumentHelp("Your team ID.", valueName: "tid"))
        var teamID: String?
        @Option(name: .customLong("bundle-id"), help: ArgumentHelp("The app's bundle ID (no push-type suffix).", valueName: "id"))
        var bundleID: String?
        @Option(help: ArgumentHelp("A named target and key from the profiles file.", valueName: "name"))
        var profile: String?
        @Option(name: .customLong("request-id"), help: ArgumentHelp("apns-request-id: a UUID.", valueName: "uuid"))
        var requestID: String?
        @Flag(help: "Print the answer as one JSON object.") var json = false

        /// Sends one management request and prints the answer; a refusal exits 1.
        func run(method: String, path: String, channelID: String? = nil, body: [UInt8] = []) throws {
            var flags = PushTargetFlags()
            flags.url = url
            flags.caFile = caFile
            flags.keyFile = keyFile
            flags.keyID = keyID
            flags.teamID = teamID
            flags.bundleID = bundleID
            flags.profile = profile
            var defaults = PushCommand.defaults
            defaults.url = "https://localhost:2195"
            let target: PushTarget
            do {
                target = try PushTargetResolver.resolve(flags, environment: ProcessInfo.processInfo.environment, defaults: defaults)
            } catch { throw CommandFailure.usage("\(error)") }
            guard let bundle = target.bundleID else { throw CommandFailure.usage("give --bundle-id") }
            var headers: [HeaderField] = []
            if let keyFile = target.keyFile, let keyID = target.keyID, let teamID = target.teamID {
                do {
                    let key = try ES256PrivateKey(pem: try String(contentsOfFile: keyFile, encoding: .utf8))
                    let token = try ProviderTokenSigner(teamID: teamID, keyID: keyID, key: key).token(issuedAt: SystemClock().now())
                    headers.append(HeaderField("authorization", "bearer \(token)"))
                } catch {
                    throw CommandFailure.usage("signing key \(keyFile): \(error)")
                }
            }
            if let requestID { headers.append(HeaderField("apns-request-id", requestID)) }
            if let channelID { headers.append(HeaderField("apns-channel-id", channelID)) }
            let request = HTTP2Request(method: method, path: "/1/apps/\(bundle)/\(path)", headers: headers, body: body)
            let response = try Self.exchange(request, target: target)
            print(Self.describe(response, json: json))
            if !(200..<300).contains(response.status) { throw ExitCode(CommandExit.notFoundOrRejected) }
        }

        static func exchange(_ request: HTTP2Request, target: PushTarget) throws -> HTTP2Response {
            let connection: HTTP2ClientConnection
            do {
                connection = try HTTP2ClientConnection(endpoint: target.endpoint, tls: target.tls, timeout: 10)
            } catch { throw CommandFailure.usage("cannot connect to \(target.endpoint): \(error)") }
            defer { connection.close() }
            var pending: HTTP2Request? = request
            var answer: Result<HTTP2Response, HTTP2StreamFailure>?
            let end = connection.exchange(maxInFlight: 1, next: {
                guard let next = pending else { return .done }
                pending = nil
                return .request(tag: 0, next)
            }, completed: { _, result in answer = result })
            switch answer {
            case .success(let response)?: return response
            case .failure(let failure)?: throw CommandFailure.usage("\(target.endpoint): \(failure)")
            case nil: throw CommandFailure.usage("\(target.endpoint): no answer (\(end))")
            }
        }

        /// `201 apns-channel-id: …`, the JSON body, or the reason; with `--json` one object with status, headers
        /// and body.
        static func describe(_ response: HTTP2Response, json: Bool) -> String {
            let body = String(decoding: response.body, as: UTF8.self)
            if json {
                var members = [JSONMember("status", .number(String(response.status)))]
                for name in ["apns-request-id", "apns-channel-id"] {
                    if let value = response.value(name) { members.append(JSONMember(name, .string(value))) }
                }
                if let parsed = JSONValue.parse(response.body) { members.append(JSONMember("body", parsed)) }
                var writer = JSONWriter()
                writer.value(.object(members))
                return String(decoding: writer.bytes, as: UTF8.self)
            }
            var line = "\(response.status)"
            if let channel = response.value("apns-channel-id") { line += " apns-channel-id: \(channel)" }
            if !body.isEmpty { line += " \(body)" }
            if let requestID = response.value("apns-request-id") { line += " (apns-request-id \(requestID))" }
            return line
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a channel: POST /1/apps/BUNDLE/channels (answers 201 and apns-channel-id).")
        @OptionGroup var target: Target
        @Option(name: .customLong("storage-policy"), help: ArgumentHelp("message-storage-policy: 0 no message stored, 1 most recent message stored.", valueName: "0|1"))
        var storagePolicy: Int = 1

        func run() throws {
            let body = #"{"message-storage-policy":\#(storagePolicy),"push-type":"LiveActivity"}"#
            try target.run(method: "POST", path: "channels", body: Array(body.utf8))
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the app's channels: GET /1/apps/BUNDLE/all-channels.")
        @OptionGroup var target: Target
        func run() throws { try target.run(method: "GET", path: "all-channels") }
    }

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "get", abstract: "Read a channel's configuration: GET /1/apps/BUNDLE/channels with apns-channel-id.")
        @OptionGroup var target: Target
        @Argument(help: "The channel id (base64).") var channelID: String
        func run() throws { try target.run(method: "GET", path: "channels", channelID: channelID) }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a channel: DELETE /1/apps/BUNDLE/channels with apns-channel-id (answers 204).")
        @OptionGroup var target: Target
        @Argument(help: "The channel id (base64).") var channelID: String
        func run() throws { try target.run(method: "DELETE", path: "channels", channelID: channelID) }
    }
}
