extension PushRule {
    /// `apns-topic` must be present and non-empty, else `400 MissingTopic`.
    ///
    /// Source: A-SEND ("Required"), A-RESP (`MissingTopic`); A-SEND. APNs defaults the topic for single-topic
    /// certificates: on a certificate connection the authentication step has already filled it in
    /// (`CertificateAuthenticator`); with token auth the topic is always required (as pushy's mock does).
    public static let topicPresent = PushRule(topicShape: "topic.present") { evaluation in
        // Byte-wise: a Character is " " or "\t" exactly when it is that one byte (neither has an equivalent).
        guard let topic = evaluation.facts.topic, !topic.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else {
            return RuleRejection(
                .missingTopic, "send apns-topic: the app's bundle ID, plus the push type's suffix if it has one")
        }
        return nil
    }

    /// A topic that is only a push-type suffix (`.push-type.liveactivity`) has no bundle ID: `400 MissingTopic`.
    ///
    /// Source: mobile-surfaces MS035 (an empty bundle ID gives a topic of just the suffix and `MissingTopic`).
    public static let topicHasBundleID = PushRule(topicShape: "topic.has-bundle-id") { evaluation in
        guard let topic = evaluation.facts.topic else { return nil }
        var bytes = topic
        let (length, ascii) = bytes.withUTF8 { ($0.count, $0.allSatisfy { $0 < 0x80 }) }
        // An ASCII topic can be a bare suffix only at the suffix's length or one byte shorter (no leading dot); a
        // non-ASCII one may still equal it under Unicode equivalence, so it is compared with every suffix.
        for (suffix, suffixLength) in topicSuffixes {
            guard !ascii || length == suffixLength || length == suffixLength - 1 else { continue }
            if topic == suffix || topic.utf8.elementsEqual(suffix.utf8.dropFirst()) {
                return RuleRejection(
                    .missingTopic,
                    "apns-topic \(topic.debugDescription) has no bundle ID; use <bundle ID>\(suffix)")
            }
        }
        return nil
    }

    /// The push types' topic suffixes (`PushType.suffixedByLongestSuffix`, longest first) with their lengths in
    /// bytes, as strings: walking them retains nothing. At most one can match a topic (each starts with a dot, then
    /// a letter), so their order does not matter.
    private static let topicSuffixes: [(suffix: String, length: Int)] = PushType.suffixedByLongestSuffix
        .map { ($0.pushType.topicSuffix, $0.suffix.count) }

    /// A push-type suffix written twice (`com.example.app.push-type.liveactivity.push-type.liveactivity`,
    /// `….voip.voip`) is `400 TopicDisallowed`.
    ///
    /// Source: mobile-surfaces MS018 (doubled Live Activity suffix gives `TopicDisallowed`), alexalok/dotAPNS#90
    /// (`.voip.voip`).
    public static let topicSuffixNotDoubled = PushRule(topicShape: "topic.suffix-not-doubled") { evaluation in
        guard let topic = evaluation.facts.topic, let implied = evaluation.pushTypeImplied(byTopic: topic) else {
            return nil
        }
        let suffix = implied.topicSuffix
        let suffixLength = suffix.utf8.count
        var bytes = topic
        let doubled = bytes.withUTF8 { topic in
            topic.count >= 2 * suffixLength
                && topic[(topic.count - 2 * suffixLength)..<(topic.count - suffixLength)].elementsEqual(suffix.utf8)
        }
        guard doubled else { return nil }
        return RuleRejection(
            .topicDisallowed,
            "apns-topic repeats the suffix \(suffix): \(topic); the bundle ID must not include it. Use "
                + "\(String(topic.dropLast(suffix.count)))")
    }

    /// The topic must look like a bundle ID (letters, digits, `-` and `.`, no empty part), else `400 BadTopic`.
    ///
    /// Source: A-RESP (`BadTopic`: "The apns-topic value is invalid"); bundle-ID characters per Apple's
    /// `CFBundleIdentifier` ("alphanumeric characters (A–Z, a–z, and 0–9), hyphens (-), and periods (.)"). Which
    /// topics APNs calls invalid is unknown; this is the mock's choice (docs/rules.md).
    public static let topicSyntax = PushRule(topicShape: "topic.syntax") { evaluation in
        guard let topic = evaluation.facts.topic else { return nil }
        guard isBundleIDShaped(topic) else {
            return RuleRejection(
                .badTopic,
                "apns-topic must be a bundle ID (letters, digits, '-' and '.', no empty parts); got "
                    + topic.debugDescription)
        }
        return nil
    }

    /// Whether `topic`, whose suffix implies `implied` (`PushType.implied(byTopic:)`), passes all four rules of
    /// `topicShape`, for the usual topic: bundle-ID-shaped (`topic.syntax`; then it is present, ASCII and does not
    /// start with a dot), not a bare suffix without its dot (`topic.has-bundle-id`), no doubled suffix
    /// (`topic.suffix-not-doubled`). One pass and no rule closures; false sends the topic through the rules, which
    /// give the answer (a false here is never a rejection by itself).
    static func isWellShapedTopic(_ topic: String, implied: PushType?) -> Bool {
        let bytes = topic.utf8.span
        guard isBundleIDShaped(bytes: bytes) else { return false }
        for (suffix, suffixLength) in topicSuffixes where bytes.count == suffixLength - 1 {
            if ByteScan.equal(bytes, suffix.utf8.span.extracting(1...)) { return false }
        }
        guard let implied else { return true }
        let suffix = implied.topicSuffix.utf8.span
        let suffixLength = suffix.count
        return bytes.count < 2 * suffixLength
            || !ByteScan.equal(bytes.extracting((bytes.count - 2 * suffixLength)..<(bytes.count - suffixLength)), suffix)
    }

    /// Letters, digits, `-` and `.` only, and no empty part between dots (one pass over the bytes: this runs twice
    /// per push).
    static func isBundleIDShaped(_ topic: String) -> Bool {
        isBundleIDShaped(bytes: topic.utf8.span)
    }

    private static func isBundleIDShaped(bytes: Span<UInt8>) -> Bool {
        var partLength = 0
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "."):
                if partLength == 0 { return false }
                partLength = 0
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                partLength += 1
            default:
                return false
            }
        }
        return partLength > 0
    }

    /// A push type with a topic suffix needs a topic with that suffix, else `400 DeviceTokenNotForTopic`.
    ///
    /// Source: A-SEND (push-type/topic table), observed `DeviceTokenNotForTopic` for a Live Activity push to the
    /// bare bundle ID (F-712499); A-SEND and docs/rules.md check order (recommended for the other types too).
    ///
    /// Also warns (no rejection, APNs' answer unknown): `topic-suffix-push-type-mismatch` when a bare-topic push type
    /// (`alert`, `background`, `mdm`) goes to a suffixed topic, `push-type-missing` when `apns-push-type` is absent.
    public static let topicMatchesPushType = PushRule(id: "topic.push-type-suffix") { evaluation in
        guard let topic = evaluation.facts.topic else { return nil }
        let implied = evaluation.pushTypeImplied(byTopic: topic)
        guard let pushType = evaluation.facts.pushType else {
            let assumed = implied ?? .alert
            evaluation.warn(
                .pushTypeMissing,
                "send apns-push-type with every push (A-SEND); it is required for watchOS and for Live Activities. "
                    + "The mock judged this push as \(assumed.rawValue)")
            return nil
        }
        let suffix = pushType.topicSuffix
        if suffix.isEmpty {
            if let implied {
                evaluation.warn(
                    .topicSuffixPushTypeMismatch,
                    "apns-topic \(topic) is the topic of \(implied.rawValue) pushes, but apns-push-type is "
                        + "\(pushType.rawValue); \(pushType.rawValue) pushes go to the bare bundle ID")
            }
            return nil
        }
        guard implied == pushType else {
            return RuleRejection(
                .deviceTokenNotForTopic,
                "apns-topic must end in \(suffix) when apns-push-type is \(pushType.rawValue); got \(topic)")
        }
        return nil
    }
}
