import APNSCore
import APNSJSON
import Foundation

/// `apns-mock push --requests FILE`: many pushes in one run, over the same connections and provider token.
/// The file is `{"pushes": [ … ]}` (the conformance runner's scenario instructions) or a bare array; each entry
/// takes the flags' names in camel case: `deviceToken` (required), `pushType`, `topic`, `bundleID`, `priority`,
/// `expiration`, `collapseID`, `apnsID`, and `payload` (JSON text or a JSON object). What an entry leaves out
/// comes from the command line's flags.
package enum PushRequestsFile {
    package static func parse(_ data: Data, defaults: PushNotification) throws(PushBuildError) -> [PushNotification] {
        let root: JSONValue
        do { root = try JSONParser.parse(Array(data)) } catch {
            throw PushBuildError("--requests: not JSON (\(error.description))")
        }
        guard let list = root["pushes"]?.arrayValue ?? root.arrayValue else {
            throw PushBuildError("--requests: expected {\"pushes\": [...]} or a JSON array of pushes")
        }
        var pushes: [PushNotification] = []
        for (position, item) in list.enumerated() {
            guard let entry = item.objectValue else { throw PushBuildError("--requests: entry \(position + 1) is not an object") }
            pushes.append(try notification(entry, position: position + 1, defaults: defaults))
        }
        return pushes
    }

    static let knownKeys: Set<String> = [
        "deviceToken", "pushType", "topic", "bundleID", "priority", "expiration", "collapseID", "apnsID", "payload",
    ]

    static func notification(_ entry: [String: JSONValue], position: Int, defaults: PushNotification) throws(PushBuildError) -> PushNotification {
        if let unknown = entry.keys.sorted().first(where: { !knownKeys.contains($0) }) {
            throw PushBuildError("--requests: entry \(position) has an unknown key \(unknown) (known: \(knownKeys.sorted().joined(separator: ", ")))")
        }
        var push = defaults
        guard let token = entry["deviceToken"]?.stringValue else { throw PushBuildError("--requests: entry \(position) has no deviceToken") }
        push.deviceToken = token
        if let type = entry["pushType"] {
            guard let name = type.stringValue, let parsed = PushType(rawValue: name) else {
                throw PushBuildError("--requests: entry \(position): pushType \(type.compactText) is not one of \(PushType.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            push.pushType = parsed
        }
        if let topic = entry["topic"]?.stringValue { push.topic = topic }
        if let bundleID = entry["bundleID"]?.stringValue { push.bundleID = bundleID; push.topic = entry["topic"]?.stringValue }
        if let priority = entry["priority"] { push.priority = try integer(priority, "priority", position) }
        if let expiration = entry["expiration"] { push.expiration = try integer(expiration, "expiration", position) }
        if let collapseID = entry["collapseID"]?.stringValue { push.collapseID = collapseID }
        if let apnsID = entry["apnsID"]?.stringValue { push.apnsID = apnsID }
        switch entry["payload"] {
        case .string(let text)?: push.payload = Array(text.utf8)
        case let object? where object.isObject: push.payload = object.sortingKeys.compactBytes
        case nil: break
        default: throw PushBuildError("--requests: entry \(position): payload is JSON text or an object")
        }
        return push
    }

    static func integer(_ value: JSONValue, _ key: String, _ position: Int) throws(PushBuildError) -> Int {
        if let number = value.doubleValue, number == number.rounded(), let whole = Int(exactly: number) { return whole }
        if let text = value.stringValue, let number = Int(text) { return number }
        throw PushBuildError("--requests: entry \(position): \(key) is not an integer")
    }
}
