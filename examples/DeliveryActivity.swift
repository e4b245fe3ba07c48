// The app side of examples/live_activity_service.py: the ActivityAttributes the app declares. Never compiled here;
// `apns-mock check --activity-source examples/DeliveryActivity.swift` reads it to check every content-state and
// attributes object the service sends, as the device would decode them.
import ActivityKit

struct DeliveryAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var status: String
        var minutesLeft: Int
    }

    var orderNumber: String
}
