/// Authentication hygiene (A-TOKEN): ES256 with a kid (fail: APNs refuses anything else), integer `iat` (warn: APNs
/// accepts a string or a fraction), no new token on a connection within 20 minutes, refreshed within the hour, a fresh
/// token after ExpiredProviderToken.
enum AuthGrader {
    static let minimumRefreshNanos: Int64 = 20 * 60 * 1_000_000_000
    static let maximumAgeSeconds = 3600.0

    static func tokened(_ history: [ObservedRequest]) -> [ObservedRequest] { history.filter { $0.tokenFingerprint != nil } }

    static func es256(_ history: [ObservedRequest]) -> RuleResult {
        let requests = tokened(history)
        if requests.isEmpty { return .notApplicable(.authES256, "no provider token (certificate or no authentication)") }
        var findings: [Finding] = []
        var seen: Set<String> = []
        for request in requests where seen.insert(request.tokenFingerprint!).inserted {
            let alg = ClaimText.string("alg", request.tokenHeader)
            if alg != "ES256" { findings.append(Finding(.fail, "alg is \(alg ?? "missing"), not ES256", requests: [request.id])) }
            if ClaimText.string("kid", request.tokenHeader) == nil { findings.append(Finding(.fail, "no kid in the token header", requests: [request.id])) }
            switch ClaimText.issuedAtForm(request.tokenClaims) {
            case .integer: break
            // APNs accepts a string or fractional iat (apns-protocol §4.2: APNSwift, kalyke shipped it): advice only.
            case .string: findings.append(Finding(.warn, "iat is a string (\(request.tokenClaims ?? "")): APNs documents an integer number of seconds", requests: [request.id]))
            case .float: findings.append(Finding(.warn, "iat has a fraction (\(request.tokenClaims ?? "")): APNs documents an integer number of seconds", requests: [request.id]))
            case .missing, .other: findings.append(Finding(.fail, "no usable iat in \(request.tokenClaims ?? "the claims")", requests: [request.id]))
            }
        }
        // One line per kind of problem, not one per token (a library that makes a token per push has hundreds).
        var kept: [Finding] = []
        var counts: [String: Int] = [:]
        for finding in findings {
            let kind = String(finding.message.prefix { $0 != "(" })
            counts[kind, default: 0] += 1
            if counts[kind] == 1 { kept.append(finding) }
        }
        for index in kept.indices {
            let kind = String(kept[index].message.prefix { $0 != "(" })
            if let count = counts[kind], count > 1 { kept[index].message += " — and \(count - 1) more tokens like it" }
        }
        return RuleResult(rule: .authES256, summary: "\(plural(seen.count, "provider token")) checked", findings: kept)
    }

    /// A new token on the same connection within 20 minutes is what APNs refuses (429 TooManyProviderTokenUpdates,
    /// "more than once every 20 minutes on the same connection", A-TOKEN, F-675879): fail. A new token per
    /// connection (Pushy's model, a second connection opened under load, a reconnect after GOAWAY) is accepted by
    /// APNs; Apple only advises reusing one token: warn.
    static func reuse(_ history: [ObservedRequest]) -> RuleResult {
        let requests = tokened(history)
        if requests.isEmpty { return .notApplicable(.authReuse, "no provider token") }
        func key(_ request: ObservedRequest) -> String {
            "\(ClaimText.string("kid", request.tokenHeader) ?? "?")/\(ClaimText.string("iss", request.tokenClaims) ?? "?")"
        }
        var sameConnection: [Finding] = []
        for (connection, uses) in ConnectionGrader.byConnection(requests) {
            var current: [String: (fingerprint: String, since: ObservedRequest, refused: Bool)] = [:]
            for request in uses {
                let signer = key(request)
                let fingerprint = request.tokenFingerprint!
                if let previous = current[signer], previous.fingerprint != fingerprint {
                    let gap = request.receivedAtNanos - previous.since.receivedAtNanos
                    if gap < minimumRefreshNanos, !previous.refused {
                        sameConnection.append(Finding(.fail, "a new provider token \(milliseconds(gap)) after the previous one on connection \(connection) (key \(signer)): APNs answers 429 TooManyProviderTokenUpdates to more than one new token every 20 minutes on a connection", requests: [request.id, previous.since.id]))
                    }
                }
                if current[signer]?.fingerprint != fingerprint { current[signer] = (fingerprint, request, false) }
                if request.status == 403, request.reason == "ExpiredProviderToken" || request.reason == "InvalidProviderToken" {
                    current[signer]?.refused = true
                }
            }
        }
        // Per signing key across connections: new tokens sooner than 20 minutes after the previous one that APNs
        // had not refused.
        var latest: [String: (since: ObservedRequest, refused: Bool)] = [:]
        var early: [String: [(ObservedRequest, ObservedRequest)]] = [:]
        var order: [String] = []
        var seen: Set<String> = []
        for request in requests {
            let signer = key(request)
            if seen.insert(request.tokenFingerprint!).inserted {
                if let previous = latest[signer], !previous.refused, previous.since.connectionID != request.connectionID,
                   request.receivedAtNanos - previous.since.receivedAtNanos < minimumRefreshNanos {
                    if early[signer] == nil { order.append(signer) }
                    early[signer, default: []].append((request, previous.since))
                }
                latest[signer] = (request, false)
            }
            if request.status == 403, request.reason == "ExpiredProviderToken" || request.reason == "InvalidProviderToken",
               latest[signer]?.since.tokenFingerprint == request.tokenFingerprint {
                latest[signer]?.refused = true
            }
        }
        let advice = order.map { signer in
            let pairs = early[signer]!
            return Finding(.warn, "\(plural(pairs.count, "new provider token")) for key \(signer) within 20 minutes of the previous one, each on another connection (APNs accepts that): Apple advises one token reused for 20 to 60 minutes", requests: [pairs[0].0.id, pairs[0].1.id])
        }
        var findings = Array(sameConnection.prefix(5))
        if sameConnection.count > 5 { findings.append(Finding(.fail, "… and \(sameConnection.count - 5) more new tokens within 20 minutes on one connection")) }
        findings += advice
        let connections = Set(requests.map(\.connectionID)).count
        return RuleResult(rule: .authReuse, summary: "\(plural(seen.count, "token")) for \(plural(requests.count, "request")) on \(plural(connections, "connection"))", findings: findings)
    }

    static func refresh(_ history: [ObservedRequest]) -> RuleResult {
        let requests = tokened(history)
        if requests.isEmpty { return .notApplicable(.authRefresh, "no provider token") }
        var findings: [Finding] = []
        var oldest = 0.0
        for request in requests {
            guard let iat = ClaimText.issuedAt(request.tokenClaims) else { continue }
            let age = Double(request.receivedAtNanos) / 1e9 - iat
            oldest = max(oldest, age)
            if age >= maximumAgeSeconds, !request.answerWasInjected {
                findings.append(Finding(.fail, "the provider token was \(Int(age / 60)) minutes old: APNs refuses tokens an hour old (ExpiredProviderToken)", requests: [request.id]))
            }
        }
        return RuleResult(rule: .authRefresh, summary: "oldest token used at \(Int(oldest)) s", findings: Array(findings.prefix(10)))
    }

    static func expiredRetry(_ history: [ObservedRequest]) -> RuleResult {
        let expired = history.enumerated().filter { $0.element.status == 403 && $0.element.reason == "ExpiredProviderToken" }
        if expired.isEmpty { return .notApplicable(.authExpiredRetry, "no 403 ExpiredProviderToken answer (inject one: --inject ExpiredProviderToken:5%)") }
        var findings: [Finding] = []
        for (index, answer) in expired {
            let later = history[(index + 1)...].filter { $0.pushKey == answer.pushKey && $0.receivedAtNanos >= answer.answeredAtNanos }
            guard let retry = later.first else {
                findings.append(Finding(.fail, "the push answered ExpiredProviderToken was never sent again: it is lost", requests: [answer.id]))
                continue
            }
            if retry.tokenFingerprint == answer.tokenFingerprint {
                findings.append(Finding(.fail, "re-sent with the same expired provider token", requests: [retry.id, answer.id]))
            }
        }
        return RuleResult(rule: .authExpiredRetry, summary: "\(plural(expired.count, "ExpiredProviderToken answer"))", findings: findings)
    }
}
