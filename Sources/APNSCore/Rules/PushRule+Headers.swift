extension PushRule {
    /// The APNs request headers that may appear at most once: the header index's names but `authorization`, which
    /// is left to the authenticator, which receives every value (`AuthRequest.authorization`).
    public static let singleValueHeaders = APNsHeaderIndex.Name.allCases
        .filter { $0 != .authorization }.map(\.fieldName)

    /// A repeated APNs header is `400 DuplicateHeaders`.
    ///
    /// Source: A-RESP ("One or more headers are repeated"), A-SEND. Which headers count is unknown;
    /// choice: the `apns-*` headers of A-SEND's header table (clients' `content-type`, `user-agent` … are ignored).
    public static let headersNotRepeated = PushRule(id: "headers.not-repeated") { evaluation in
        // The evaluation's header index already knows (one pass per push); the message is built only on a repeat.
        guard evaluation.headerIndex.repeatsASingleValueHeader else { return nil }
        for name in PushRule.singleValueHeaders {
            let count = evaluation.request.values(name).count
            if count > 1 {
                return RuleRejection(.duplicateHeaders, "send \(name) once; it appeared \(count) times")
            }
        }
        return nil
    }

    /// `apns-id`, when present, must be a canonical UUID (8-4-4-4-12 hex digits), else `400 BadMessageId`.
    ///
    /// Source: A-SEND ("a canonical UUID … 8-4-4-4-12"), A-RESP (`BadMessageId`); A-SEND. Choice: either letter case
    /// (Apple writes lower case; APNs itself generates upper case, A-RESP).
    public static let headersMessageID = PushRule(id: "headers.apns-id") { evaluation in
        guard let value = evaluation.facts.apnsID else { return nil }
        guard ApnsID.isCanonicalUUID(value) else {
            return RuleRejection(
                .badMessageId,
                "apns-id must be a UUID like 123e4567-e89b-12d3-a456-4266554400a0 (8-4-4-4-12 hex digits); got "
                    + value.debugDescription)
        }
        return nil
    }

    /// `apns-expiration`, when present, must be an integer (UNIX seconds), else `400 BadExpirationDate`.
    ///
    /// Source: A-SEND ("UNIX epoch expressed in seconds"), A-RESP (`BadExpirationDate`); A-SEND. Choice: decimal
    /// digits only (no sign, no fraction, no spaces), fitting in 64 bits.
    public static let headersExpiration = PushRule(id: "headers.apns-expiration") { evaluation in
        guard let value = evaluation.header(.apnsExpiration) else { return nil }
        guard !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seconds = Int64(value) else {
            return RuleRejection(
                .badExpirationDate,
                "apns-expiration must be an integer: UNIX seconds, or 0 to attempt delivery once; got "
                    + value.debugDescription)
        }
        evaluation.facts.expiration = seconds
        return nil
    }

    /// `apns-priority`, when present, must be `10`, `5` or `1`, else `400 BadPriority`.
    ///
    /// Source: A-SEND (priorities 10, 5, 1), A-RESP (`BadPriority`); A-SEND.
    public static let headersPriority = PushRule(id: "headers.apns-priority") { evaluation in
        guard let value = evaluation.header(.apnsPriority) else { return nil }
        let priority: Int? = switch value {  // no array of the three per push
        case "1": 1
        case "5": 5
        case "10": 10
        default: nil
        }
        guard let priority else {
            return RuleRejection(.badPriority, "apns-priority must be 10, 5 or 1; got \(value.debugDescription)")
        }
        evaluation.facts.priority = priority
        return nil
    }

    /// `apns-push-type`, when present, must be one of the documented values, else `400 InvalidPushType`.
    ///
    /// Source: A-SEND (push-type list), A-RESP (`InvalidPushType`); A-SEND. Choice: exact lower-case spelling, as
    /// Apple documents and every client sends for device pushes.
    public static let headersPushType = PushRule(id: "headers.apns-push-type") { evaluation in
        guard let value = evaluation.header(.apnsPushType) else { return nil }
        guard let pushType = PushType(rawValue: value) else {
            let known = PushType.allCases.map(\.rawValue).joined(separator: ", ")
            return RuleRejection(
                .invalidPushType, "apns-push-type must be one of \(known); got \(value.debugDescription)")
        }
        evaluation.facts.pushType = pushType
        return nil
    }

    /// `apns-collapse-id` must not exceed 64 bytes (UTF-8), else `400 BadCollapseId`.
    ///
    /// Source: A-SEND ("must not exceed 64 bytes"), A-RESP (`BadCollapseId`); A-SEND.
    public static let headersCollapseID = PushRule(id: "headers.apns-collapse-id") { evaluation in
        guard let value = evaluation.facts.collapseID else { return nil }
        let bytes = value.utf8.count
        guard bytes <= 64 else {
            return RuleRejection(.badCollapseId, "apns-collapse-id must be at most 64 bytes; got \(bytes) bytes")
        }
        return nil
    }
}
