// The ActivityAttributes the Live Activity scenarios send to (attributes-type DeliveryAttributes). Never
// compiled; `apns-mock conformance sender` reads it (unless --activity-source is given) so that every
// content-state and attributes object is decoded as the app would decode it.
import ActivityKit

struct DeliveryAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var status: String
        var minutesLeft: Int
    }

    var orderNumber: String
}
