import APNSJSON

/// The state one device push accumulates while the rules run: the request and its context, the facts parsed so far,
/// the warnings, the authenticated sender and the parsed payload. Not shared between threads.
public struct PushEvaluation {
    public let request: HTTPRequest
    public let configuration: RuleConfiguration
    public let tokens: DeviceTokenRegistry
    public let authenticator: (any ConnectionAuthenticator)?
    /// The environment the push is judged in (override, else the listener's).
    public let environment: APNsEnvironment
    public let now: Timestamp
    /// Where the APNs headers sit in `request.headers` (one pass; read them with `header(_:)`).
    public let headerIndex: APNsHeaderIndex

    public var facts: PushFacts
    public var warnings: [PushWarning] = []
    public var sender: AuthenticatedSender?
    /// What authentication read of a token it refused.
    public var presentedToken: PresentedToken?
    /// The registry entry for the device token, once `token.declared` has looked it up.
    public var declaredToken: DeclaredDeviceToken?
    /// The parsed body, once `payload.json-object` has run (nil when the body is not JSON).
    public var payload: JSONValue?
    /// The topic the topic-shape rules (`PushRule.topicShape`) already passed: authentication runs them before its
    /// own topic check, and they then pass this topic in step 5 without checking it again.
    public var wellFormedTopic: String?
    /// `PushType.implied(byTopic:)` and the topic it was worked out for: the topic rules read it up to three times
    /// per push (certificate authentication may fill the topic in, hence the topic kept beside it).
    private var impliedByTopic: (topic: String, pushType: PushType?)?
    /// `DeviceTokenFormat.leadingASCIIHexDigits` of the device token, once counted: the path rule and the
    /// token-format rule both read it (the token is set once, from `:path`).
    private var deviceTokenScan: (count: Int, stop: UInt8?)?

    public init(
        request: HTTPRequest, configuration: RuleConfiguration, tokens: DeviceTokenRegistry,
        authenticator: (any ConnectionAuthenticator)?, now: Timestamp
    ) {
        self.request = request
        self.configuration = configuration
        self.tokens = tokens
        self.authenticator = authenticator
        self.environment = configuration.environmentOverride ?? request.connection.environment
        self.now = now
        let headerIndex = APNsHeaderIndex(request.headers)
        self.headerIndex = headerIndex
        self.facts = PushFacts(
            deviceToken: PushEvaluation.deviceToken(inPath: request.path),
            topic: headerIndex.value(.apnsTopic, in: request.headers),
            apnsID: headerIndex.value(.apnsID, in: request.headers),
            collapseID: headerIndex.value(.apnsCollapseID, in: request.headers))
    }

    /// `PushType.implied(byTopic: topic)`, worked out once per topic.
    public mutating func pushTypeImplied(byTopic topic: String) -> PushType? {
        if let known = impliedByTopic, known.topic == topic { return known.pushType }
        let implied = PushType.implied(byTopic: topic)
        impliedByTopic = (topic, implied)
        return implied
    }

    /// `DeviceTokenFormat.leadingASCIIHexDigits(facts.deviceToken ?? "")`, counted once per push.
    public mutating func deviceTokenHexScan() -> (count: Int, stop: UInt8?) {
        if let deviceTokenScan { return deviceTokenScan }
        let scan = DeviceTokenFormat.leadingASCIIHexDigits(facts.deviceToken ?? "")
        deviceTokenScan = scan
        return scan
    }

    /// The first value of an APNs header, as `request.value(name.fieldName)`.
    public func header(_ name: APNsHeaderIndex.Name) -> String? {
        headerIndex.value(name, in: request.headers)
    }

    /// Every value of an APNs header in arrival order, as `request.values(name.fieldName)`.
    public func headerValues(_ name: APNsHeaderIndex.Name) -> [String] {
        headerIndex.values(name, in: request.headers)
    }

    /// The push type that decides topic and size rules: the header's, else the one the topic's suffix implies,
    /// else `alert` (APNs' behaviour without the header is undocumented; docs/rules.md).
    public var effectivePushType: PushType {
        facts.pushType ?? facts.topic.flatMap(PushType.implied(byTopic:)) ?? .alert
    }

    /// The payload's `aps` dictionary, when the body is an object whose `aps` is an object (look members up with
    /// `aps[key]`: the first of duplicate keys wins, as on the device).
    public var aps: JSONValue? {
        guard let aps = payload?["aps"], aps.isObject else { return nil }
        return aps
    }

    public mutating func warn(_ code: PushWarningCode, _ message: String) {
        warnings.append(code.warning(message))
    }

    /// The part of a `/3/device/…` path after the prefix; nil for other paths.
    static func deviceToken(inPath path: String) -> String? {
        // The prefix is ten ASCII characters; when the byte after it is ASCII too (or there is none), a character
        // boundary follows the prefix's last byte, so the token is the bytes after it. Otherwise the tenth
        // character may absorb combining marks: dropped by characters, as ever. The prefix is compared in place,
        // byte by byte.
        let bytes = path.utf8.span
        let prefix = "/3/device/".utf8.span
        guard bytes.count >= prefix.count, ByteScan.equal(bytes.extracting(0..<prefix.count), prefix) else { return nil }
        guard bytes.count == prefix.count || bytes[prefix.count] < 0x80 else { return String(path.dropFirst(prefix.count)) }
        return String(decoding: path.utf8.dropFirst(prefix.count), as: UTF8.self)
    }
}
