import APNSJSON
import Foundation

/// The JSON form of a fault spec: strict decoding (every problem is a `FaultSpecError` naming the key) and the
/// canonical encoding shown by `GET /api/config/faults` and kept in delivery records.
extension FaultSpec: Codable {
    public static let matchKeys = ["deviceToken", "topic", "keyID", "teamID", "connection", "pushType"]
    public static let actionKeys = [
        "status", "resetStream", "blackHole", "delayMs", "goaway", "closeConnection", "maxConcurrentStreams",
        "unregisterAfter",
    ]
    /// Keys that belong to the `status` action.
    public static let answerKeys = ["status", "reason", "timestamp", "goAway"]
    public static let scopeKeys = ["remaining", "every", "probability", "seed", "from", "until"]

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(JSONValue.self)
        guard let object = value.objectValue else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "a fault spec must be a JSON object"))
        }
        do {
            self = try FaultSpec(json: object)
        } catch let error as FaultSpecError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(JSONValue.object(json))
    }

    /// Parses one spec from its JSON object.
    public init(json object: [String: JSONValue]) throws {
        let known = Set(Self.matchKeys + Self.answerKeys + Self.actionKeys + Self.scopeKeys)
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw FaultSpecError(
                "unknown key \"\(unknown)\"\(Self.suggestion(unknown, among: Array(known))); a fault spec takes the match keys "
                    + Self.matchKeys.joined(separator: ", ") + ", exactly one action ("
                    + (["status/reason"] + Self.actionKeys.dropFirst()).joined(separator: ", ") + ") and the scope keys "
                    + Self.scopeKeys.joined(separator: ", "))
        }
        let reader = Reader(object: object)
        match = FaultMatch(
            deviceToken: try reader.nonEmptyString("deviceToken")?.lowercased(),
            topic: try reader.nonEmptyString("topic"),
            keyID: try reader.nonEmptyString("keyID"),
            teamID: try reader.nonEmptyString("teamID"),
            connection: try reader.integer("connection", in: 0...Int64.max).map { UInt64($0) },
            pushType: try reader.nonEmptyString("pushType"))
        if let pushType = match.pushType, PushType(rawValue: pushType) == nil {
            throw FaultSpecError("pushType \"\(pushType)\" is not an APNs push type: use one of "
                + PushType.allCases.map(\.rawValue).joined(separator: ", "))
        }

        var given = Self.actionKeys.filter { object[$0] != nil }
        if object["reason"] != nil && !given.contains("status") { given.insert("status", at: 0) }
        guard !given.isEmpty else {
            throw FaultSpecError("no action: give exactly one of status/reason, "
                + Self.actionKeys.dropFirst().joined(separator: ", "))
        }
        guard given.count == 1 else {
            throw FaultSpecError("more than one action (\(given.joined(separator: ", "))): give exactly one")
        }
        for key in ["timestamp", "goAway"] where object[key] != nil && given[0] != "status" {
            throw FaultSpecError("\(key) belongs to a status/reason answer, not to \(given[0])")
        }
        action = try Self.action(given[0], reader)

        scope = FaultScope(
            remaining: try reader.integer("remaining", in: 1...Int64(Int.max)).map { Int($0) },
            every: try reader.integer("every", in: 1...Int64(Int.max)).map { Int($0) },
            probability: try reader.number("probability"),
            seed: try reader.integer("seed", in: 0...Int64.max).map { UInt64($0) },
            from: try reader.number("from"),
            until: try reader.number("until"))
        if let probability = scope.probability, !(0...1).contains(probability) {
            throw FaultSpecError("probability must be between 0.0 and 1.0, got \(probability)")
        }
        if case .unregisterAfter = action, scope.remaining != nil || scope.every != nil || scope.probability != nil {
            throw FaultSpecError("unregisterAfter takes only the scope keys from and until")
        }
        if let from = scope.from, let until = scope.until, until <= from {
            throw FaultSpecError("until (\(until)) must be later than from (\(from))")
        }
    }

    private static func action(_ key: String, _ reader: Reader) throws -> FaultAction {
        switch key {
        case "status":
            let reason = try reader.nonEmptyString("reason").map { name -> Reason in
                guard let reason = Reason(rawValue: name) else {
                    throw FaultSpecError("unknown reason \"\(name)\"\(suggestion(name, among: Reason.allCases.map(\.rawValue))): "
                        + "use a reason APNs sends, spelled as Apple spells it (docs/rules.md)")
                }
                return reason
            }
            let status = try reader.integer("status", in: 200...599).map { Int($0) } ?? reason?.status
            guard let status else { throw FaultSpecError("status or reason is required") }
            if status != 200 && reason == nil {
                throw FaultSpecError("status \(status) needs a reason: APNs always names one in the error body")
            }
            if status == 200 && reason != nil {
                throw FaultSpecError("status 200 carries no reason (reason \(reason!.rawValue) would be \(reason!.status))")
            }
            let timestamp = try reader.integer("timestamp", in: 0...Int64.max)
            if timestamp != nil && status != 410 {
                throw FaultSpecError("timestamp is sent only with status 410 (A-RESP), not \(status)")
            }
            return .answer(status: status, reason: reason, timestamp: timestamp, goAway: try reader.bool("goAway") ?? false)
        case "resetStream":
            let name = try reader.nonEmptyString("resetStream")!
            guard let code = FaultResetCode(rawValue: name) else {
                throw FaultSpecError("resetStream \"\(name)\" is not an HTTP/2 error code\(suggestion(name, among: FaultResetCode.allCases.map(\.rawValue))): use one of "
                    + FaultResetCode.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return .resetStream(code)
        case "blackHole":
            guard try reader.bool("blackHole") == true else { throw FaultSpecError("blackHole must be true") }
            return .blackHole
        case "closeConnection":
            guard try reader.bool("closeConnection") == true else { throw FaultSpecError("closeConnection must be true") }
            return .closeConnection
        case "delayMs":
            let limit: ClosedRange<Int64> = 0...3_600_000
            if let range = reader.object["delayMs"]?.objectValue {
                let inner = Reader(object: range, prefix: "delayMs.")
                if let extra = range.keys.sorted().first(where: { $0 != "min" && $0 != "max" }) {
                    throw FaultSpecError("unknown key \"delayMs.\(extra)\": delayMs takes a number or {\"min\": A, \"max\": B}")
                }
                guard let low = try inner.integer("min", in: limit), let high = try inner.integer("max", in: limit) else {
                    throw FaultSpecError("delayMs as a range needs both min and max")
                }
                guard low <= high else { throw FaultSpecError("delayMs.min (\(low)) must not exceed delayMs.max (\(high))") }
                return .delay(minMilliseconds: Int(low), maxMilliseconds: Int(high))
            }
            let fixed = Int(try reader.integer("delayMs", in: limit)!)
            return .delay(minMilliseconds: fixed, maxMilliseconds: fixed)
        case "goaway":
            guard let fields = reader.object["goaway"]?.objectValue else {
                throw FaultSpecError("goaway must be an object: {\"reason\": \"Shutdown\", \"after\": \"answer\"|\"before\", \"lastStreamID\"?: N, \"afterStreams\"?: N}")
            }
            let allowed = ["reason", "after", "lastStreamID", "afterStreams"]
            if let extra = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
                throw FaultSpecError("unknown key \"goaway.\(extra)\"\(suggestion(extra, among: allowed)): goaway takes "
                    + allowed.joined(separator: ", "))
            }
            let inner = Reader(object: fields, prefix: "goaway.")
            var goAway = FaultGoAway()
            if let name = try inner.nonEmptyString("reason") {
                guard let reason = Reason(rawValue: name) else {
                    throw FaultSpecError("unknown reason \"\(name)\" in goaway.reason\(suggestion(name, among: Reason.allCases.map(\.rawValue)))")
                }
                goAway.reason = reason
            }
            if let timing = try inner.nonEmptyString("after") {
                guard let value = FaultGoAway.Timing(rawValue: timing) else {
                    throw FaultSpecError("goaway.after must be \"answer\" or \"before\", got \"\(timing)\"")
                }
                goAway.after = value
            }
            goAway.lastStreamID = try inner.integer("lastStreamID", in: 0...Int64(Int32.max)).map { Int32($0) }
            goAway.afterStreams = try inner.integer("afterStreams", in: 1...Int64(Int.max)).map { Int($0) }
            return .goAway(goAway)
        case "maxConcurrentStreams":
            return .maxConcurrentStreams(UInt32(try reader.integer("maxConcurrentStreams", in: 0...Int64(UInt32.max))!))
        case "unregisterAfter":
            return .unregisterAfter(Int(try reader.integer("unregisterAfter", in: 0...Int64(Int.max))!))
        default:
            throw FaultSpecError("unknown action \(key)")
        }
    }

    /// The canonical JSON form (what was given, with defaults spelled out and the status derived from the reason).
    public var json: [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        if let value = match.deviceToken { object["deviceToken"] = .string(value) }
        if let value = match.topic { object["topic"] = .string(value) }
        if let value = match.keyID { object["keyID"] = .string(value) }
        if let value = match.teamID { object["teamID"] = .string(value) }
        if let value = match.connection { object["connection"] = .integer(Int64(value)) }
        if let value = match.pushType { object["pushType"] = .string(value) }
        switch action {
        case .answer(let status, let reason, let timestamp, let goAway):
            object["status"] = .integer(Int64(status))
            if let reason { object["reason"] = .string(reason.rawValue) }
            if let timestamp { object["timestamp"] = .integer(timestamp) }
            if goAway { object["goAway"] = .bool(true) }
        case .resetStream(let code): object["resetStream"] = .string(code.rawValue)
        case .blackHole: object["blackHole"] = .bool(true)
        case .closeConnection: object["closeConnection"] = .bool(true)
        case .delay(let low, let high):
            object["delayMs"] = low == high ? .integer(Int64(low)) : .object(["min": .integer(Int64(low)), "max": .integer(Int64(high))])
        case .goAway(let goAway):
            var fields: [String: JSONValue] = ["reason": .string(goAway.reason.rawValue), "after": .string(goAway.after.rawValue)]
            if let value = goAway.lastStreamID { fields["lastStreamID"] = .integer(Int64(value)) }
            if let value = goAway.afterStreams { fields["afterStreams"] = .integer(Int64(value)) }
            object["goaway"] = .object(fields)
        case .maxConcurrentStreams(let value): object["maxConcurrentStreams"] = .integer(Int64(value))
        case .unregisterAfter(let count): object["unregisterAfter"] = .integer(Int64(count))
        }
        if let value = scope.remaining { object["remaining"] = .integer(Int64(value)) }
        if let value = scope.every { object["every"] = .integer(Int64(value)) }
        if let value = scope.probability { object["probability"] = .number(value) }
        if let value = scope.seed { object["seed"] = .integer(Int64(clamping: value)) }
        if let value = scope.from { object["from"] = .number(value) }
        if let value = scope.until { object["until"] = .number(value) }
        return object
    }

    /// The canonical JSON text, keys sorted.
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// ` (did you mean "X"?)` when a known name is within two edits or differs only in case.
    public static func suggestion(_ given: String, among names: [String]) -> String {
        let lowered = given.lowercased()
        let best = names
            .map { ($0, $0.lowercased() == lowered ? 0 : EditDistance.between(lowered, $0.lowercased())) }
            .min { $0.1 < $1.1 }
        guard let best, best.1 <= 2 else { return "" }
        return " (did you mean \"\(best.0)\"?)"
    }
}

/// Typed access to the keys of one JSON object, with errors that name the key.
private struct Reader {
    public let object: [String: JSONValue]
    public var prefix = ""

    public func nonEmptyString(_ key: String) throws -> String? {
        guard let value = object[key] else { return nil }
        guard case .string(let text) = value else { throw FaultSpecError("\(prefix)\(key) must be a string") }
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw FaultSpecError("\(prefix)\(key) must not be empty (leave the key out to match every request)")
        }
        return text
    }

    public func integer(_ key: String, in range: ClosedRange<Int64>) throws -> Int64? {
        guard let value = object[key] else { return nil }
        let number: Int64
        if let integer = value.int64Value {
            number = integer
        } else if let double = value.doubleValue, double.rounded() == double, abs(double) < 9e18 {
            number = Int64(double)
        } else {
            throw FaultSpecError("\(prefix)\(key) must be an integer")
        }
        guard range.contains(number) else {
            throw FaultSpecError("\(prefix)\(key) must be in \(range.lowerBound)...\(range.upperBound), got \(number)")
        }
        return number
    }

    public func number(_ key: String) throws -> Double? {
        guard let value = object[key] else { return nil }
        guard let double = value.doubleValue, double.isFinite else {
            throw FaultSpecError("\(prefix)\(key) must be a number")
        }
        return double
    }

    public func bool(_ key: String) throws -> Bool? {
        switch object[key] {
        case nil: return nil
        case .bool(let value)?: return value
        default: throw FaultSpecError("\(prefix)\(key) must be true or false")
        }
    }
}

extension JSONValue {
    /// An integer number value.
    fileprivate static func integer(_ value: Int64) -> JSONValue { .number(String(value)) }

    /// An object from a dictionary, members in key order (the canonical form is sorted anyway).
    fileprivate static func object(_ dictionary: [String: JSONValue]) -> JSONValue {
        .object(dictionary.keys.sorted().map { JSONMember($0, dictionary[$0]!) })
    }
}
