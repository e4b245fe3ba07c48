import APNSCore
import APNSJSON
import Foundation

/// The JSON body of a push built from flags (A-GEN for `aps`, A-LA for Live Activities). A `--payload` file alone
/// is sent byte for byte; flags given with it are merged into its `aps`. Built bodies keep a readable key order;
/// merged ones are re-serialised with sorted keys.
enum PushPayloadBuilder {
    static func body(for push: PushNotification, pushType: PushType, now: Timestamp) throws(PushBuildError) -> [UInt8] {
        let members = try apsMembers(push, pushType: pushType, now: now)
        if let payload = push.payload {
            return members.isEmpty ? payload : try merged(payload, members, pushType: pushType, now: now)
        }
        if members.isEmpty {
            switch pushType {
            case .alert: return Array(#"{"aps":{"alert":"Hello from apns-mock"}}"#.utf8)
            case .background: return Array(#"{"aps":{"content-available":1}}"#.utf8)
            case .widgets, .controls: return Array(#"{"aps":{"content-changed":true}}"#.utf8)
            case .liveactivity: throw PushBuildError("a Live Activity push needs --event start|update|end (or --payload FILE)")
            case .mdm: throw PushBuildError("an mdm push carries the device's PushMagic: give --payload with {\"mdm\":\"…\"}")
            default: return Array(#"{"aps":{}}"#.utf8)
            }
        }
        try checkLiveActivityCompleteness(Set(members.map(\.key)), push: push, pushType: pushType)
        let aps = members.map { "\(jsonString($0.key)):\($0.json)" }.joined(separator: ",")
        return Array("{\"aps\":{\(aps)}}".utf8)
    }

    /// `aps` keys from the flags, in a readable order, each with its JSON text.
    static func apsMembers(_ push: PushNotification, pushType: PushType, now: Timestamp) throws(PushBuildError) -> [(key: String, json: String)] {
        var members: [(key: String, json: String)] = []
        if pushType == .liveactivity, let event = push.event {
            members.append(("timestamp", String(push.timestamp ?? Int(now.secondsSinceEpoch.rounded(.down)))))
            members.append(("event", jsonString(event.rawValue)))
        } else if push.timestamp != nil || push.staleDate != nil {
            let flag = push.timestamp != nil ? "--timestamp" : "--stale-date"
            throw PushBuildError("\(flag) goes with a Live Activity --event")
        }
        if let text = push.contentState { members.append(("content-state", try jsonObjectText(text, flag: "--content-state"))) }
        if let type = push.attributesType {
            guard !type.isEmpty else { throw PushBuildError("--attributes-type is empty") }
            members.append(("attributes-type", jsonString(type)))
        }
        if let text = push.attributes { members.append(("attributes", try jsonObjectText(text, flag: "--attributes"))) }
        if let date = push.staleDate { members.append(("stale-date", String(date))) }
        if let date = push.dismissalDate { members.append(("dismissal-date", String(date))) }
        if let score = push.relevanceScore {
            guard score.isFinite else { throw PushBuildError("--relevance-score must be a number") }
            members.append(("relevance-score", number(score)))
        }
        if push.inputPushToken || push.inputPushChannel != nil, push.event != .start, push.payload == nil {
            throw PushBuildError("--input-push-token and --input-push-channel go with --event start")
        }
        if push.inputPushToken { members.append(("input-push-token", "1")) }
        if let channel = push.inputPushChannel { members.append(("input-push-channel", jsonString(channel))) }
        if push.alertTitle != nil || push.alertBody != nil {
            var alert: [String] = []
            if let title = push.alertTitle { alert.append("\"title\":\(jsonString(title))") }
            if let body = push.alertBody { alert.append("\"body\":\(jsonString(body))") }
            members.append(("alert", "{\(alert.joined(separator: ","))}"))
        }
        if pushType == .background, !members.isEmpty { members.insert(("content-available", "1"), at: 0) }
        return members
    }

    /// A start needs its type, attributes, first state and an alert; an update needs its state (A-LA).
    static func checkLiveActivityCompleteness(_ keys: Set<String>, push: PushNotification, pushType: PushType) throws(PushBuildError) {
        guard pushType == .liveactivity else { return }
        guard let event = push.event else {
            throw PushBuildError("a Live Activity push needs --event start|update|end")
        }
        let needed: [(String, String)] = switch event {
        case .start: [("attributes-type", "--attributes-type"), ("attributes", "--attributes"),
                      ("content-state", "--content-state"), ("alert", "--alert-title/--alert-body")]
        case .update: [("content-state", "--content-state")]
        case .end: []
        }
        let missing = needed.filter { !keys.contains($0.0) }.map(\.1)
        if !missing.isEmpty {
            throw PushBuildError("a Live Activity \(event.rawValue) needs \(missing.joined(separator: ", ")) (the device drops it otherwise)")
        }
    }

    static func merged(_ payload: [UInt8], _ members: [(key: String, json: String)], pushType: PushType, now: Timestamp) throws(PushBuildError) -> [UInt8] {
        guard var object = JSONValue.parse(payload)?.objectValue else {
            throw PushBuildError("--payload is not a JSON object, so flags cannot be added to it (send it alone, or fix it)")
        }
        if let given = object["aps"], !given.isObject {
            throw PushBuildError("aps in --payload is not an object, so flags cannot be added to it")
        }
        var aps = object["aps"]?.objectValue ?? [:]
        for member in members {
            aps[member.key] = JSONValue.parse(Array(member.json.utf8))
        }
        if pushType == .liveactivity, aps["event"] != nil, aps["timestamp"] == nil {
            aps["timestamp"] = .integer(Int64(now.secondsSinceEpoch.rounded(.down)))
        }
        object["aps"] = .object(aps.map { JSONMember($0.key, $0.value) })
        // Keys sorted at every level, as the device sees them once decoded (the first of duplicate keys wins).
        return JSONValue.object(object.map { JSONMember($0.key, $0.value) }).sortingKeys.compactBytes
    }

    /// The text of a JSON object given on the command line, checked and trimmed.
    static func jsonObjectText(_ text: String, flag: String) throws(PushBuildError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard JSONValue.parse(Array(trimmed.utf8))?.isObject == true else {
            throw PushBuildError("\(flag) must be a JSON object, e.g. '{\"status\":\"on the way\"}', not \(text)")
        }
        return trimmed
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    static func jsonString(_ text: String) -> String {
        var writer = JSONWriter()
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
