import APNSJSON

extension PushRule {
    /// An empty body is `400 PayloadEmpty`.
    ///
    /// Source: A-RESP ("The message payload is empty"); A-GEN.
    public static let payloadNotEmpty = PushRule(id: "payload.not-empty") { evaluation in
        guard evaluation.request.bodyLength > 0 else {
            return RuleRejection(.payloadEmpty, "send a JSON object body, for example {\"aps\":{\"alert\":\"Hello\"}}")
        }
        return nil
    }

    /// A body over the push type's limit (4096 bytes; 5120 for `voip`) is `413 PayloadTooLarge`.
    ///
    /// Source: A-SEND, A-GEN (limits), A-RESP (`PayloadTooLarge`, 413); A-GEN. The limit follows the header's push
    /// type, else the one the topic suffix implies.
    public static let payloadSize = PushRule(id: "payload.size") { evaluation in
        let pushType = evaluation.effectivePushType
        let bytes = evaluation.request.bodyLength
        guard bytes <= pushType.payloadLimit else {
            return RuleRejection(
                .payloadTooLarge,
                "\(pushType.rawValue) payloads may be at most \(pushType.payloadLimit) bytes; got \(bytes) bytes")
        }
        return nil
    }

    /// The body must be a JSON object. APNs' answer otherwise is unknown (A-GEN, docs/rules.md choices); the mock's default is
    /// `400 BadRequestPayload`, the reason APNs' broadcast API gives for unparseable JSON (A-BERR);
    /// `RuleConfiguration.nonJSONBody` can accept it with the warning `body-not-json-object` instead.
    public static let payloadJSONObject = PushRule(id: "payload.json-object") { evaluation in
        let parsed = JSONValue.parse(evaluation.request.body)
        evaluation.payload = parsed
        if parsed?.isObject == true { return nil }
        let found = parsed.map { "a JSON \($0.kindName)" } ?? "text that is not JSON (or not UTF-8)"
        let advice = "the body must be a JSON object such as {\"aps\":{…}}; got \(found). "
            + "(APNs' answer to this is undocumented; this is the mock's choice)"
        switch evaluation.configuration.nonJSONBody {
        case .reject(let reason):
            return RuleRejection(reason, advice)
        case .acceptWithWarning:
            evaluation.warn(.bodyNotJSONObject, advice)
            return nil
        }
    }
}
