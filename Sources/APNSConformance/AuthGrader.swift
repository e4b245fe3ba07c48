/// Authentication hygiene (A-TOKEN): ES256, integer `iat`, one token reused, refreshed between 20 and 60 minutes,
/// a fresh token after ExpiredProviderToken.
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
            case .string: findings.append(Finding(.fail, "iat is a string (\(request.tokenClaims ?? "")): APNs documents an integer number of seconds", requests: [request.id]))
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

    static func reuse(_ history: [ObservedRequest]) -> RuleResult {
        let requests = tokened(history)
        if requests.isEmpty { return .notApplicable(.authReuse, "no provider token") }
        var findings: [Finding] = []
        // Per signing key (kid + team), the first use of each distinct token.
        var groups: [String: [ObservedRequest]] = [:]
        var order: [String] = []
        for request in requests {
            let key = "\(ClaimText.string("kid", request.tokenHeader) ?? "?")/\(ClaimText.string("iss", request.tokenClaims) ?? "?")"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(request)
        }
        var tokenCount = 0
        for key in order {
            let uses = groups[key]!
            var firstUse: [String: ObservedRequest] = [:]
            var previous: ObservedRequest?
            var rejectedSincePrevious = false
            var tooSoon: [Finding] = []
            for request in uses {
                let fingerprint = request.tokenFingerprint!
                if firstUse[fingerprint] == nil {
                    firstUse[fingerprint] = request
                    if let previous, !rejectedSincePrevious {
                        let gap = request.receivedAtNanos - previous.receivedAtNanos
                        if gap < minimumRefreshNanos {
                            tooSoon.append(Finding(.fail, "a new provider token \(milliseconds(gap)) after the previous one (key \(key)): at most one every 20 minutes, or APNs answers 429 TooManyProviderTokenUpdates", requests: [request.id, previous.id]))
                        }
                    }
                    previous = request
                    rejectedSincePrevious = false
                }
                if request.status == 403, request.reason == "ExpiredProviderToken" || request.reason == "InvalidProviderToken" {
                    rejectedSincePrevious = true
                }
            }
            tokenCount += firstUse.count
            if uses.count >= 3, firstUse.count == uses.count {
                findings.append(Finding(.fail, "a new provider token for every one of \(uses.count) requests (key \(key))", requests: uses.prefix(3).map(\.id)))
            } else {
                findings += tooSoon.prefix(5)
                if tooSoon.count > 5 { findings.append(Finding(.fail, "… and \(tooSoon.count - 5) more new tokens within 20 minutes")) }
            }
        }
        let connections = Set(requests.map(\.connectionID)).count
        return RuleResult(rule: .authReuse, summary: "\(plural(tokenCount, "token")) for \(plural(requests.count, "request")) on \(plural(connections, "connection"))", findings: findings)
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
            if age >= maximumAgeSeconds, !request.isInjected {
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
