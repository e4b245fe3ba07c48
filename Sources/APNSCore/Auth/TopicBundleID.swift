/// The bundle ID inside an `apns-topic`: the topic without one push-type suffix (`.voip`,
/// `.push-type.liveactivity`, …). Only one suffix is removed, so a doubled suffix stays and is not a bundle ID
/// (mobile-surfaces MS018: a doubled `.push-type.liveactivity` gives `TopicDisallowed`).
/// Source: A-SEND push-type table.
enum TopicBundleID {
    /// Longest first, so `.voip-ptt` is not read as `.voip` plus rest.
    static let suffixes = [
        ".push-type.liveactivity", ".pushkit.fileprovider", ".push-type.controls", ".push-type.widgets",
        ".location-query", ".complication", ".voip-ptt", ".voip",
    ]

    static func bundleID(fromTopic topic: String) -> String {
        for suffix in suffixes where topic.hasSuffix(suffix) && topic.utf8.count > suffix.utf8.count {
            return String(topic.dropLast(suffix.count))
        }
        return topic
    }
}
