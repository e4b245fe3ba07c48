import HTTP2
import APNSCore
import Foundation

/// What a user asks `apns-mock push` to send, before it becomes a request: the flags of the command line, one
/// field each. `PushRequestBuilder` turns it into the path, headers and body APNs expects.
package struct PushNotification: Sendable, Equatable {
    package var deviceToken: String
    /// nil: `liveactivity` when an `event` is given, else `alert`.
    package var pushType: PushType?
    /// The app's bundle ID; the topic is derived from it and the push type.
    package var bundleID: String?
    /// The topic exactly as given (wins over `bundleID`).
    package var topic: String?
    package var priority: Int?
    package var expiration: Int?
    package var collapseID: String?
    package var apnsID: String?
    /// A whole body to send (`--payload`); flags that fill `aps` are merged into it.
    package var payload: [UInt8]?
    package var alertTitle: String?
    package var alertBody: String?
    package var event: LiveActivityEventName?
    /// JSON text of `aps.content-state`.
    package var contentState: String?
    package var attributesType: String?
    /// JSON text of `aps.attributes`.
    package var attributes: String?
    package var staleDate: Int?
    package var dismissalDate: Int?
    package var relevanceScore: Double?
    /// `aps.timestamp`; nil fills in the current time (seconds) for a Live Activity push.
    package var timestamp: Int?
    package var inputPushToken = false
    package var inputPushChannel: String?
    /// A broadcast channel id: the push is a broadcast send to it (`BroadcastRequestBuilder`), not a device push.
    package var channelID: String?

    package init(deviceToken: String) {
        self.deviceToken = deviceToken
    }
}

/// `aps.event` of a Live Activity push (A-LA).
package enum LiveActivityEventName: String, Sendable, CaseIterable {
    case start, update, end
}

/// A push ready to send, without its `authorization` header (the provider token is added per attempt).
package struct BuiltPush: Sendable, Equatable {
    package var deviceToken: String
    package var pushType: PushType
    package var topic: String
    package var request: HTTP2Request
}

/// Why a push could not be built: the user's flags contradict each other or a value is malformed.
package struct PushBuildError: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
