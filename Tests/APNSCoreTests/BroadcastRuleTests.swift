import APNSCore
import CoreTestSupport
import Testing

/// The broadcast and channel-management rules, one row per reason and per success (A-CHAN, A-BSEND, A-BERR).
@Suite struct BroadcastRuleTests {
    static let bundle = "com.example.app"
    static let storedChannel = "c3RvcmVkLWNoYW5uZWw="      // base64 "stored-channel", policy 1
    static let noStoreChannel = "bm8tc3RvcmUtY2hhbm5lbA==" // base64 "no-store-channel", policy 0
    static let deletedChannel = "ZGVsZXRlZA=="             // base64 "deleted"
    static let requestID = "123E4567-E89B-12D3-A456-426655440000"

    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        var method = "POST"
        var path = "/4/broadcasts/apps/com.example.app"
        var headers: [HeaderField] = BroadcastRuleTests.sendHeaders()
        var body = #"{"aps":{"event":"update","timestamp":1767225600,"content-state":{"score":1}}}"#
        var bodyLength: Int?
        var auth = "valid"
        var disabled = false
        var limit = 10_000
        var status: Int
        var reason: Reason?
        var ruleID: String?
        var testDescription: String { name }
    }

    static func sendHeaders(channel: String = storedChannel, drop: String? = nil, set: (String, String)? = nil) -> [HeaderField] {
        var headers = [
            HeaderField("authorization", "bearer x"), HeaderField("apns-channel-id", channel),
            HeaderField("apns-push-type", "liveactivity"), HeaderField("apns-priority", "10"),
            HeaderField("apns-expiration", "0"), HeaderField("apns-request-id", requestID),
        ]
        headers.removeAll { $0.name == drop || $0.name == set?.0 }
        if let set { headers.append(HeaderField(set.0, set.1)) }
        return headers
    }

    static let manageHeaders = [HeaderField("authorization", "bearer x")]
    static func channelHeader(_ id: String) -> [HeaderField] { manageHeaders + [HeaderField("apns-channel-id", id)] }
    static let createBody = #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#

    static let rows: [Row] = [
        // Sends (POST /4/broadcasts/apps/<bundleId>)
        Row(name: "send accepted", status: 200),
        Row(name: "send accepted with apns-id instead of apns-request-id",
            headers: sendHeaders(drop: "apns-request-id") + [HeaderField("apns-id", requestID)], status: 200),
        Row(name: "send GET is MethodNotAllowed", method: "GET", status: 405, reason: .methodNotAllowed, ruleID: "broadcast.route"),
        Row(name: "send without bundle is BadPath", path: "/4/broadcasts/apps/", status: 404, reason: .badPath, ruleID: "broadcast.route"),
        Row(name: "send bundle with suffix is TopicDisallowed", path: "/4/broadcasts/apps/com.example.app.push-type.liveactivity",
            status: 400, reason: .topicDisallowed, ruleID: "broadcast.topic-suffix"),
        Row(name: "send without token", auth: "rejected:MissingProviderToken", status: 403, reason: .missingProviderToken, ruleID: "broadcast.auth"),
        Row(name: "send expired token", auth: "rejected:ExpiredProviderToken", status: 403, reason: .expiredProviderToken, ruleID: "broadcast.auth"),
        Row(name: "send invalid token", auth: "rejected:InvalidProviderToken", status: 403, reason: .invalidProviderToken, ruleID: "broadcast.auth"),
        Row(name: "send too many token updates", auth: "rejected:TooManyProviderTokenUpdates", status: 429, reason: .tooManyProviderTokenUpdates, ruleID: "broadcast.auth"),
        Row(name: "send token of another team is TopicMismatch", auth: "rejected:TopicDisallowed", status: 403, reason: .topicMismatch, ruleID: "broadcast.auth"),
        Row(name: "send with the capability off", disabled: true, status: 400, reason: .featureNotEnabled, ruleID: "broadcast.feature"),
        Row(name: "send with a malformed request id", headers: sendHeaders(set: ("apns-request-id", "nope")),
            status: 400, reason: .badMessageId, ruleID: "broadcast.request-id"),
        Row(name: "send without channel id", headers: sendHeaders(drop: "apns-channel-id"),
            status: 400, reason: .missingChannelId, ruleID: "channel.id-present"),
        Row(name: "send with a non-base64 channel id", headers: sendHeaders(channel: "not base64!"),
            status: 400, reason: .badChannelId, ruleID: "channel.id-encoding"),
        Row(name: "send with a too long channel id", headers: sendHeaders(channel: String(repeating: "A", count: 260)),
            status: 400, reason: .badChannelId, ruleID: "channel.id-encoding"),
        Row(name: "send to an unknown channel", headers: sendHeaders(channel: "dW5rbm93bg=="),
            status: 400, reason: .channelNotRegistered, ruleID: "channel.registered"),
        Row(name: "send to a deleted channel", headers: sendHeaders(channel: deletedChannel),
            status: 400, reason: .channelNotRegistered, ruleID: "channel.registered"),
        Row(name: "send to another app's channel", path: "/4/broadcasts/apps/com.example.other",
            status: 400, reason: .channelNotRegistered, ruleID: "channel.registered"),
        Row(name: "send without push type", headers: sendHeaders(drop: "apns-push-type"),
            status: 400, reason: .missingPushType, ruleID: "send.push-type-present"),
        Row(name: "send with push type alert", headers: sendHeaders(set: ("apns-push-type", "alert")),
            status: 400, reason: .invalidPushType, ruleID: "send.push-type-value"),
        Row(name: "send with push type LiveActivity casing", headers: sendHeaders(set: ("apns-push-type", "LiveActivity")), status: 200),
        Row(name: "send without priority", headers: sendHeaders(drop: "apns-priority"),
            status: 400, reason: .badPriority, ruleID: "send.priority"),
        Row(name: "send with priority 7", headers: sendHeaders(set: ("apns-priority", "7")),
            status: 400, reason: .badPriority, ruleID: "send.priority"),
        Row(name: "send without expiration", headers: sendHeaders(drop: "apns-expiration"),
            status: 400, reason: .badExpirationDate, ruleID: "send.expiration-format"),
        Row(name: "send with a non-numeric expiration", headers: sendHeaders(set: ("apns-expiration", "soon")),
            status: 400, reason: .badExpirationDate, ruleID: "send.expiration-format"),
        Row(name: "send with expiration on a stored channel", headers: sendHeaders(set: ("apns-expiration", "4102444800")), status: 200),
        Row(name: "send with expiration on a no-storage channel",
            headers: sendHeaders(channel: noStoreChannel, set: ("apns-expiration", "4102444800")),
            status: 400, reason: .badExpirationDate, ruleID: "send.expiration-policy"),
        Row(name: "send with expiration 0 on a no-storage channel", headers: sendHeaders(channel: noStoreChannel), status: 200),
        Row(name: "send without body", body: "", status: 400, reason: .payloadEmpty, ruleID: "broadcast.body-present"),
        Row(name: "send of 5120 bytes", body: paddedPayload(5120), status: 200),
        Row(name: "send of 5121 bytes", body: paddedPayload(5121), status: 413, reason: .payloadTooLarge, ruleID: "send.payload-size"),
        Row(name: "send of non-JSON", body: "score=1", status: 400, reason: .badRequestPayload, ruleID: "broadcast.body-json"),

        // Channel management (/1/apps/<bundleId>/channels, /all-channels)
        Row(name: "create", path: "/1/apps/com.example.app/channels", headers: manageHeaders, body: createBody, status: 201),
        Row(name: "create with lower-case push-type", path: "/1/apps/com.example.app/channels", headers: manageHeaders,
            body: #"{"message-storage-policy":0,"push-type":"liveactivity"}"#, status: 201),
        Row(name: "create PUT", method: "PUT", path: "/1/apps/com.example.app/channels", headers: manageHeaders,
            status: 405, reason: .methodNotAllowed, ruleID: "broadcast.route"),
        Row(name: "list POST", method: "POST", path: "/1/apps/com.example.app/all-channels", headers: manageHeaders,
            status: 405, reason: .methodNotAllowed, ruleID: "broadcast.route"),
        Row(name: "channel id in the path is BadPath", method: "GET", path: "/1/apps/com.example.app/channels/\(storedChannel)",
            headers: manageHeaders, status: 404, reason: .badPath, ruleID: "broadcast.route"),
        Row(name: "create without token", path: "/1/apps/com.example.app/channels", headers: [], body: createBody,
            auth: "rejected:MissingProviderToken", status: 403, reason: .missingProviderToken, ruleID: "broadcast.auth"),
        Row(name: "create with the capability off", path: "/1/apps/com.example.app/channels", headers: manageHeaders,
            body: createBody, disabled: true, status: 400, reason: .featureNotEnabled, ruleID: "broadcast.feature"),
        Row(name: "create without body", path: "/1/apps/com.example.app/channels", headers: manageHeaders, body: "",
            status: 400, reason: .payloadEmpty, ruleID: "broadcast.body-present"),
        Row(name: "create with unparseable body", path: "/1/apps/com.example.app/channels", headers: manageHeaders, body: "{",
            status: 400, reason: .badRequestPayload, ruleID: "broadcast.body-json"),
        Row(name: "create with an unknown key", path: "/1/apps/com.example.app/channels", headers: manageHeaders,
            body: #"{"message-storage-policy":1,"push-type":"LiveActivity","name":"x"}"#,
            status: 400, reason: .badRequestParams, ruleID: "create.known-keys"),
        Row(name: "create without storage policy", path: "/1/apps/com.example.app/channels", headers: manageHeaders,
            body: #"{"push-type":"LiveActivity"}"#, status: 400, reason: .missingChannelQueueSize, ruleID: "create.storage-policy"),
        Row(name: "create with storage policy 2", path: "/1/apps/com.example.app/channels", headers: manageHeaders,
            body: #"{"message-storage-policy":2,"push-type":"LiveActivity"}"#, status: 400, reason: .missingChannelQueueSize, ruleID: "create.storage-policy"),
        Row(name: "create without push-type", path: "/1/apps/com.example.app/channels", headers: manageHeaders,
            body: #"{"message-storage-policy":1}"#, status: 400, reason: .missingPushType, ruleID: "create.push-type"),
        Row(name: "create with push-type Alert", path: "/1/apps/com.example.app/channels", headers: manageHeaders,
            body: #"{"message-storage-policy":1,"push-type":"Alert"}"#, status: 400, reason: .invalidPushType, ruleID: "create.push-type"),
        Row(name: "create over the limit", path: "/1/apps/com.example.app/channels", headers: manageHeaders, body: createBody,
            limit: 2, status: 400, reason: .cannotCreateChannelConfig, ruleID: "create.channel-limit"),
        Row(name: "read", method: "GET", path: "/1/apps/com.example.app/channels", headers: channelHeader(storedChannel), body: "", status: 200),
        Row(name: "read without channel id", method: "GET", path: "/1/apps/com.example.app/channels", headers: manageHeaders, body: "",
            status: 400, reason: .missingChannelId, ruleID: "channel.id-present"),
        Row(name: "read a deleted channel", method: "GET", path: "/1/apps/com.example.app/channels",
            headers: channelHeader(deletedChannel), body: "", status: 400, reason: .channelNotRegistered, ruleID: "channel.registered"),
        Row(name: "delete", method: "DELETE", path: "/1/apps/com.example.app/channels", headers: channelHeader(storedChannel), body: "", status: 204),
        Row(name: "delete with a bad channel id", method: "DELETE", path: "/1/apps/com.example.app/channels",
            headers: channelHeader("%%"), body: "", status: 400, reason: .badChannelId, ruleID: "channel.id-encoding"),
        Row(name: "list", method: "GET", path: "/1/apps/com.example.app/all-channels", headers: manageHeaders, body: "", status: 200),
    ]

    static func paddedPayload(_ size: Int) -> String {
        let head = #"{"aps":{"event":"update","timestamp":1767225600,"content-state":{"note":""#
        let tail = #""}}}"#
        return head + String(repeating: "x", count: size - head.utf8.count - tail.utf8.count) + tail
    }

    static func registry() -> ChannelRegistry {
        let ids = Locked([storedChannel, noStoreChannel, deletedChannel, "bmV3LWNoYW5uZWw="])
        let registry = ChannelRegistry(makeID: { ids.withLock { $0.isEmpty ? "ZXh0cmE=" : $0.removeFirst() } })
        _ = registry.create(bundleID: bundle, environment: .development, policy: .mostRecentMessageStored, limit: 10, now: .zero)
        _ = registry.create(bundleID: bundle, environment: .development, policy: .noMessageStored, limit: 10, now: .zero)
        _ = registry.create(bundleID: bundle, environment: .development, policy: .noMessageStored, limit: 10, now: .zero)
        registry.delete(id: deletedChannel, bundleID: bundle, environment: .development)
        return registry
    }

    static func decide(_ row: Row, registry: ChannelRegistry = registry()) -> BroadcastAnswer {
        let decider = BroadcastDecider(
            settings: BroadcastSettings(disabledBundleIDs: row.disabled ? [bundle] : [], channelLimit: row.limit),
            channels: registry)
        let request = HTTPRequest(
            method: row.method, path: row.path, headers: row.headers, body: Array(row.body.utf8), bodyLength: row.bodyLength)
        let authenticator = TableAuthenticator.forCase(row.auth)
        if row.path.hasPrefix("/4/") {
            return decider.send(request, environment: .development, authenticator: authenticator, now: .zero)!
        }
        return decider.manage(request, environment: .development, authenticator: authenticator, now: .zero)
    }

    @Test(arguments: rows) func answersAsTheTableSays(_ row: Row) {
        let answer = Self.decide(row)
        #expect(answer.status == row.status)
        #expect(answer.reason == row.reason)
        #expect(answer.ruleID == row.ruleID)
        let response = answer.response()
        #expect(response.status == row.status)
        #expect(response.value("apns-request-id") != nil)
        if let reason = row.reason {
            #expect(response.value("content-type") == "application/json")
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"reason":"\#(reason.rawValue)"}"#)
        }
    }

    /// On a client-certificate connection the certificate decides, for sends and channel management alike; a bearer
    /// token beside it is ignored with a warning (A-CERT, A-BSEND, A-BERR).
    @Test(arguments: [
        ("development", "/4/broadcasts/apps/com.example.app", 200, nil),
        ("development", "/1/apps/com.example.app/all-channels", 200, nil),
        ("untrusted", "/4/broadcasts/apps/com.example.app", 403, Reason.badCertificate),
        ("production", "/4/broadcasts/apps/com.example.app", 403, Reason.badCertificateEnvironment),
        ("production", "/1/apps/com.example.app/all-channels", 403, Reason.badCertificateEnvironment),
        ("development", "/4/broadcasts/apps/com.other.app", 403, Reason.topicMismatch),
    ] as [(String, String, Int, Reason?)])
    func certificateConnectionsAreJudgedByTheCertificate(kind: String, path: String, status: Int, reason: Reason?) {
        let connection = ConnectionInfo(
            id: 1, remoteAddress: "in-memory", localPort: 0,
            tls: ConformanceCertificates.tls(forAuth: ConformanceCertificates.prefix + kind), listenerLabel: "development")
        let isSend = path.hasPrefix("/4/")
        let request = HTTPRequest(
            method: isSend ? "POST" : "GET", path: path, headers: isSend ? Self.sendHeaders() : Self.manageHeaders,
            body: isSend ? Array(Row(name: "", status: 0).body.utf8) : [], connection: connection)
        let decider = BroadcastDecider(settings: BroadcastSettings(), channels: Self.registry())
        let refusing = TableAuthenticator.forCase("rejected:InvalidProviderToken")
        let answer = isSend
            ? decider.send(request, environment: .development, authenticator: refusing, now: .zero)!
            : decider.manage(request, environment: .development, authenticator: refusing, now: .zero)
        #expect(answer.status == status)
        #expect(answer.reason == reason)
        if reason == nil { #expect(answer.warnings.contains { $0.code == "token-on-certificate-connection" }) }
    }

    @Test func everyBroadcastReasonOfTheErrorTableHasARow() {
        let covered = Set(Self.rows.compactMap(\.reason))
        let broadcastReasons: [Reason] = [
            .featureNotEnabled, .missingChannelId, .badChannelId, .channelNotRegistered, .badRequestParams,
            .badRequestPayload, .payloadEmpty, .badMessageId, .missingPushType, .invalidPushType,
            .cannotCreateChannelConfig, .badExpirationDate, .topicDisallowed, .badPriority, .missingChannelQueueSize,
            .topicMismatch, .missingProviderToken, .expiredProviderToken, .invalidProviderToken, .badPath,
            .methodNotAllowed, .payloadTooLarge, .tooManyProviderTokenUpdates,
        ]
        #expect(broadcastReasons.filter { !covered.contains($0) } == [])
    }

    @Test func ruleIdentifiersAreUniqueAndInTheDocumentedOrder() {
        let ids = BroadcastRule.order.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids == [
            "broadcast.topic-suffix", "broadcast.auth", "broadcast.feature", "broadcast.request-id",
            "channel.id-present", "channel.id-encoding", "channel.registered",
            "send.push-type-present", "send.push-type-value", "send.priority", "send.expiration-format",
            "send.expiration-policy", "broadcast.body-present", "send.payload-size", "broadcast.body-json",
            "create.known-keys", "create.storage-policy", "create.push-type", "create.channel-limit", "send.advice",
        ])
    }

    @Test func createAnswers201WithTheNewChannelIDAndAnEchoedRequestID() {
        let registry = Self.registry()
        var row = Self.rows.first { $0.name == "create" }!
        row.headers.append(HeaderField("apns-request-id", Self.requestID))
        let response = Self.decide(row, registry: registry).response()
        #expect(response.status == 201)
        #expect(response.value("apns-channel-id") == "bmV3LWNoYW5uZWw=")
        #expect(response.value("apns-request-id") == Self.requestID)
        #expect(response.body.isEmpty)
        #expect(registry.channel(id: "bmV3LWNoYW5uZWw=")?.storagePolicy == .mostRecentMessageStored)
    }

    @Test func readListAndDeleteAnswerWhatTheDocumentSays() {
        let registry = Self.registry()
        let read = Self.decide(Self.rows.first { $0.name == "read" }!, registry: registry).response()
        #expect(String(decoding: read.body, as: UTF8.self) == #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#)
        let list = Self.decide(Self.rows.first { $0.name == "list" }!, registry: registry).response()
        #expect(String(decoding: list.body, as: UTF8.self) == #"{"channels":["\#(Self.storedChannel)","\#(Self.noStoreChannel)"]}"#)
        let deleted = Self.decide(Self.rows.first { $0.name == "delete" }!, registry: registry).response()
        #expect(deleted.status == 204 && deleted.body.isEmpty)
        let again = Self.decide(Self.rows.first { $0.name == "read" }!, registry: registry)
        #expect(again.reason == .channelNotRegistered)
    }

    @Test func acceptedSendAnswersRequestIDApnsIDAndUniqueID() {
        let response = Self.decide(Self.rows[0]).response()
        #expect(response.value("apns-request-id") == Self.requestID)
        #expect(response.value("apns-id") == Self.requestID)
        #expect(response.value("apns-unique-id") != nil)
        #expect(response.body.isEmpty)
    }

    @Test func sendWarnsOnStartEndAndTopic() {
        var row = Self.rows[0]
        row.body = #"{"aps":{"event":"start","timestamp":1}}"#
        row.headers.append(HeaderField("apns-topic", "com.example.app.push-type.liveactivity"))
        let codes = Self.decide(row).warnings.map(\.code)
        #expect(codes == ["broadcast-start-event", "broadcast-topic-ignored", "broadcast-no-subscribers"])
        row.body = #"{"aps":{"event":"end","timestamp":1}}"#
        #expect(Self.decide(row).warnings.map(\.code).first == "broadcast-end-event")
    }

    @Test func channelsArePerEnvironment() {
        let registry = Self.registry()
        let decider = BroadcastDecider(settings: BroadcastSettings(), channels: registry)
        let request = HTTPRequest(
            method: "GET", path: "/1/apps/com.example.app/channels", headers: Self.channelHeader(Self.storedChannel))
        let answer = decider.manage(request, environment: .production, authenticator: nil, now: .zero)
        #expect(answer.reason == .channelNotRegistered)
        #expect(answer.explanation?.contains("development") == true)
    }

    @Test func registrySnapshotRoundTripsSubscribers() throws {
        let registry = Self.registry()
        #expect(registry.subscribe(activityToken: "ABCD", to: Self.storedChannel))
        #expect(!registry.subscribe(activityToken: "abcd", to: Self.deletedChannel))
        let copy = ChannelRegistry(registry.snapshot)
        #expect(copy.channel(id: Self.storedChannel)?.subscribers == ["abcd"])
        #expect(copy.wasDeleted(id: Self.deletedChannel))
    }
}
