import APNSJSON
import Foundation

/// `--inject` of `apns-mock check` / `conformance sender`, translated to the mock's fault-spec JSON:
///   REASON[:P%]        an APNs error reason (status from the reason), for P% of requests (all without P)
///   goaway[:every=N]   GOAWAY(Shutdown) after the answer, every Nth request (every request without N)
///   reset[:P%|every=N] RST_STREAM REFUSED_STREAM
///   blackhole[:P%]     never answer
///   delay=MS[:P%]      answer after MS milliseconds
/// Probabilities are seeded (`seed`), so the same seed gives the same run.
package struct InjectSpec: Sendable, Equatable {
    package var text: String
    /// The fault spec, as sorted-key JSON text.
    package var faultJSON: String

    /// A fault given as spec JSON (a scenario's `faults`).
    package init(text: String, faultJSON: String) {
        self.text = text
        self.faultJSON = faultJSON
    }

    package struct ParseError: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// The HTTP status APNs uses for each reason (A-RESP).
    package static let statusByReason: [String: Int] = [
        "BadCollapseId": 400, "BadDeviceToken": 400, "BadExpirationDate": 400, "BadMessageId": 400, "BadPriority": 400,
        "BadTopic": 400, "DeviceTokenNotForTopic": 400, "DuplicateHeaders": 400, "IdleTimeout": 400,
        "InvalidPushType": 400, "MissingDeviceToken": 400, "MissingTopic": 400, "PayloadEmpty": 400,
        "TopicDisallowed": 400, "BadCertificate": 403, "BadCertificateEnvironment": 403, "ExpiredProviderToken": 403,
        "Forbidden": 403, "InvalidProviderToken": 403, "MissingProviderToken": 403, "UnrelatedKeyIdInToken": 403,
        "BadEnvironmentKeyInToken": 403, "BadPath": 404, "MethodNotAllowed": 405, "ExpiredToken": 410,
        "Unregistered": 410, "PayloadTooLarge": 413, "TooManyProviderTokenUpdates": 429, "TooManyRequests": 429,
        "InternalServerError": 500, "ServiceUnavailable": 503, "Shutdown": 503,
    ]

    package static func parse(_ text: String, seed: Int) throws -> InjectSpec {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard let head = parts.first, !head.isEmpty else { throw ParseError(description: "empty --inject") }
        let scopeText = parts.count > 1 ? parts[1] : nil
        var spec: [String: JSONValue] = [:]
        var allowed: Set<String> = ["percent"]
        switch head.lowercased() {
        case "goaway":
            spec["goaway"] = .object([JSONMember("after", .string("answer")), JSONMember("reason", .string("Shutdown"))])
            allowed = ["every"]
        case "reset":
            spec["resetStream"] = .string("REFUSED_STREAM")
            allowed = ["percent", "every"]
        case "blackhole":
            spec["blackHole"] = .bool(true)
        case let delay where delay.hasPrefix("delay="):
            guard let ms = Int(delay.dropFirst(6)), ms > 0, ms <= 600_000 else {
                throw ParseError(description: "--inject \(text): delay=MS needs whole milliseconds between 1 and 600000")
            }
            spec["delayMs"] = .number(String(ms))
        default:
            guard let status = statusByReason[head] else {
                let near = statusByReason.keys.filter { $0.lowercased() == head.lowercased() }.first
                throw ParseError(description: "--inject \(text): \(head) is not an APNs reason, goaway, reset, blackhole or delay=MS"
                    + (near.map { " (did you mean \($0)?)" } ?? ""))
            }
            spec["reason"] = .string(head)
            spec["status"] = .number(String(status))
        }
        if let scopeText {
            if scopeText.hasSuffix("%"), allowed.contains("percent") {
                guard let percent = Double(scopeText.dropLast()), percent > 0, percent <= 100 else {
                    throw ParseError(description: "--inject \(text): a percentage is between 0 and 100, e.g. 5%")
                }
                spec["probability"] = .number(percent / 100)
                spec["seed"] = .number(String(seed))
            } else if scopeText.hasPrefix("every="), allowed.contains("every") {
                guard let every = Int(scopeText.dropFirst(6)), every >= 1 else {
                    throw ParseError(description: "--inject \(text): every=N needs a whole number N ≥ 1")
                }
                spec["every"] = .number(String(every))
            } else {
                throw ParseError(description: "--inject \(text): \(head) takes \(allowed.sorted().map { $0 == "percent" ? "P%" : "every=N" }.joined(separator: " or ")), not \(scopeText)")
            }
        }
        let object = JSONValue.object(spec.map { JSONMember($0.key, $0.value) })
        return InjectSpec(text: text, faultJSON: object.sortedCompactText)
    }

    /// The scope keys a fault engine must keep for this spec to mean what it says (a fault engine that drops
    /// `probability` would answer every request with the fault).
    package var requiredKeys: [String] {
        ["probability", "every", "seed", "goaway", "resetStream", "blackHole", "delayMs"].filter { faultJSON.contains("\"\($0)\"") }
    }
}
