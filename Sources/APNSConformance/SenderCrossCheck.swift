import APNSJSON
import Foundation

/// The sender's side of a run compared with the mock's. The adapter writes what the library said for each push
/// it sent (`APNS_MOCK_SENDER_RESULTS`, one JSON object a line: `{"index": N, "success": true|false, "said":
/// "…"}`, `index` the push's position in the instruction file). A push the mock recorded as accepted (200) that the
/// library did not report as a success is an answer lost between the mock and the sender: a mock bug, and the
/// matrix fails on it. A success the library reported for a push the mock never accepted is the library's claim,
/// reported; pushes accepted more than once are counted.
package struct SenderCrossCheck: Sendable, Equatable, Encodable {
    /// One line of the adapter's results file.
    package struct Outcome: Sendable, Equatable, Decodable {
        package var index: Int
        package var success: Bool
        package var said: String?

        package init(index: Int, success: Bool, said: String? = nil) {
            self.index = index
            self.success = success
            self.said = said
        }
    }

    package struct Mismatch: Sendable, Equatable, Encodable {
        package var index: Int
        package var deviceToken: String
        package var mockStatuses: [Int]
        package var said: String
        package var requests: [Int64]
    }

    /// The scenario (sender mode).
    package var scenario: String?
    /// Pushes the sender reported on.
    package var reported: Int
    /// The mock answered 200, the sender did not see a success: an answer lost on the wire (a mock bug).
    package var lostAnswers: [Mismatch]
    /// The sender reported a success, the mock accepted no such request.
    package var unconfirmedSuccesses: [Mismatch]
    /// Accepted requests beyond the first for the same push.
    package var duplicateAcceptances: Int
    /// Reported pushes whose requests could not be told apart in the mock's records (not compared).
    package var unmatched: Int

    package var holds: Bool { lostAnswers.isEmpty }

    /// Each outcome's push (by index in `instructions`) is found among the requests by device token and payload
    /// (the JSON compared with sorted keys, since libraries re-serialise it).
    package static func compare(scenario: String? = nil, outcomes: [Outcome], instructions: [(deviceToken: String, payload: String)], requests: [ObservedRequest]) -> SenderCrossCheck {
        func canonical(_ text: String?) -> String? {
            guard let text, let value = JSONValue.parse(Array(text.utf8)) else { return text }
            return value.sortedCompactText
        }
        var byPush: [String: [ObservedRequest]] = [:]
        for request in requests {
            byPush["\(request.deviceToken ?? "-")\u{0}\(canonical(request.payload) ?? "")", default: []].append(request)
        }
        var check = SenderCrossCheck(scenario: scenario, reported: outcomes.count, lostAnswers: [], unconfirmedSuccesses: [], duplicateAcceptances: 0, unmatched: 0)
        var counted: Set<String> = []
        for outcome in outcomes {
            guard instructions.indices.contains(outcome.index) else { check.unmatched += 1; continue }
            let push = instructions[outcome.index]
            let key = "\(push.deviceToken)\u{0}\(canonical(push.payload) ?? "")"
            let sent = byPush[key] ?? []
            let accepted = sent.filter { $0.status == 200 }
            if counted.insert(key).inserted { check.duplicateAcceptances += max(0, accepted.count - 1) }
            let mismatch = Mismatch(
                index: outcome.index, deviceToken: push.deviceToken, mockStatuses: sent.map(\.status),
                said: outcome.said ?? (outcome.success ? "success" : "failure"), requests: sent.map(\.id))
            if sent.isEmpty {
                if outcome.success { check.unmatched += 1 }
            } else if !accepted.isEmpty, !outcome.success {
                check.lostAnswers.append(mismatch)
            } else if accepted.isEmpty, outcome.success {
                check.unconfirmedSuccesses.append(mismatch)
            }
        }
        return check
    }

    package func terminalText() -> String {
        var out = "sender cross-check\(scenario.map { " (\($0))" } ?? ""): \(plural(reported, "push")) reported by the sender"
        if lostAnswers.isEmpty, unconfirmedSuccesses.isEmpty, duplicateAcceptances == 0, unmatched == 0 {
            return out + ", every outcome as the mock recorded it\n"
        }
        out += "; \(lostAnswers.count) accepted by the mock but not a success for the sender; \(unconfirmedSuccesses.count) successes the mock did not accept; \(duplicateAcceptances) duplicate acceptances"
        if unmatched > 0 { out += "; \(unmatched) not found in the records" }
        out += "\n"
        for lost in lostAnswers.prefix(10) {
            out += "        MOCK BUG: push #\(lost.index) to \(lost.deviceToken.prefix(12))… recorded \(lost.mockStatuses.map(String.init).joined(separator: ", ")) [request \(lost.requests.map { "#\($0)" }.joined(separator: ", "))], the sender said: \(lost.said)\n"
        }
        for claim in unconfirmedSuccesses.prefix(10) {
            out += "        push #\(claim.index) to \(claim.deviceToken.prefix(12))…: the sender said success, the mock answered \(claim.mockStatuses.map(String.init).joined(separator: ", "))\n"
        }
        return out
    }

    /// The adapter's results file: one JSON object a line; blank lines skipped.
    package static func parseOutcomes(_ data: Data) throws -> [Outcome] {
        try String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .filter { !$0.allSatisfy(\.isWhitespace) }
            .map { try JSONDecoder().decode(Outcome.self, from: Data($0.utf8)) }
    }
}
