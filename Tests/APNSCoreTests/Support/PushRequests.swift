import APNSCore

/// Builders for device-push requests in unit tests.
enum PushRequests {
    static let token = String(repeating: "ab", count: 32)
    static let now = Timestamp(nanosecondsSinceEpoch: 1_767_225_600_000_000_000)

    static func push(
        token: String = token, method: String = "POST", topic: String? = "com.example.app",
        pushType: String? = "alert", headers more: [HeaderField] = [], body: String = #"{"aps":{"alert":"Hi"}}"#,
        bodyLength: Int? = nil, environment: APNsEnvironment = .development
    ) -> HTTPRequest {
        var headers: [HeaderField] = []
        if let topic { headers.append(HeaderField("apns-topic", topic)) }
        if let pushType { headers.append(HeaderField("apns-push-type", pushType)) }
        return HTTPRequest(
            method: method, path: "/3/device/\(token)", headers: headers + more, body: Array(body.utf8),
            bodyLength: bodyLength,
            connection: ConnectionInfo(
                id: 7, remoteAddress: "in-memory", localPort: 0, tls: nil, environment: environment))
    }

    static func validate(
        _ request: HTTPRequest, configuration: RuleConfiguration = RuleConfiguration(),
        tokens: DeviceTokenRegistry = DeviceTokenRegistry(), authenticator: (any ConnectionAuthenticator)? = nil
    ) -> Verdict {
        PushValidator(configuration: configuration, tokens: tokens)
            .evaluate(request, authenticator: authenticator, now: now)
    }
}
