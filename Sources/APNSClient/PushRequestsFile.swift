import APNSCore
import Foundation

/// `apns-mock push --requests FILE`: many pushes in one run, over the same connections and provider token.
/// The file is `{"pushes": [ … ]}` (the conformance runner's scenario instructions) or a bare array; each entry
/// takes the flags' names in camel case: `deviceToken` (required), `pushType`, `topic`, `bundleID`, `priority`,
/// `expiration`, `collapseID`, `apnsID`, and `payload` (JSON text or a JSON object). What an entry leaves out
/// comes from the command line's flags.
public enum PushRequestsFile {
    public static func parse(_ data: Data, defaults: PushNotification) throws(PushBuildError) -> [PushNotification] {
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw PushBuildError("--requests: not JSON (\(error.localizedDescription))")
        }
        guard let list = (root as? [String: Any])?["pushes"] as? [Any] ?? root as? [Any] else {
            throw PushBuildError("--requests: expected {\"pushes\": [...]} or a JSON array of pushes")
        }
        var pushes: [PushNotification] = []
        for (position, item) in list.enumerated() {
            guard let entry = item as? [String: Any] else { throw PushBuildError("--requests: entry \(position + 1) is not an object") }
            pushes.append(try notification(entry, position: position + 1, defaults: defaults))
        }
        return pushes
    }

    static let knownKeys: Set<String> = [
        "deviceToken", "pushType", "topic", "bundleID", "priority", "expiration", "collapseID", "apnsID", "payload",
    ]

    static func notification(_ entry: [String: Any], position: Int, defaults: PushNotification) throws(PushBuildError) -> PushNotification {
        if let unknown = entry.keys.sorted().first(where: { !knownKeys.contains($0) }) {
            throw PushBuildError("--requests: entry \(position) has an unknown key \(unknown) (known: \(knownKeys.sorted().joined(separator: ", ")))")
        }
        var push = defaults
        guard let token = entry["deviceToken"] as? String else { throw PushBuildError("--requests: entry \(position) has no deviceToken") }
        push.deviceToken = token
        if let type = entry["pushType"] {
            guard let name = type as? String, let parsed = PushType(rawValue: name) else {
                throw PushBuildError("--requests: entry \(position): pushType \(type) is not one of \(PushType.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            push.pushType = parsed
        }
        if let topic = entry["topic"] as? String { push.topic = topic }
        if let bundleID = entry["bundleID"] as? String { push.bundleID = bundleID; push.topic = entry["topic"] as? String }
        if let priority = entry["priority"] { push.priority = try integer(priority, "priority", position) }
        if let expiration = entry["expiration"] { push.expiration = try integer(expiration, "expiration", position) }
        if let collapseID = entry["collapseID"] as? String { push.collapseID = collapseID }
        if let apnsID = entry["apnsID"] as? String { push.apnsID = apnsID }
        switch entry["payload"] {
        case let text as String: push.payload = Array(text.utf8)
        case let object as [String: Any]:
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
                throw PushBuildError("--requests: entry \(position): payload cannot be serialised")
            }
            push.payload = Array(data)
        case nil: break
        default: throw PushBuildError("--requests: entry \(position): payload is JSON text or an object")
        }
        return push
    }

    static func integer(_ value: Any, _ key: String, _ position: Int) throws(PushBuildError) -> Int {
        if let number = value as? NSNumber, number.doubleValue == number.doubleValue.rounded() { return number.intValue }
        if let text = value as? String, let number = Int(text) { return number }
        throw PushBuildError("--requests: entry \(position): \(key) is not an integer")
    }
}
