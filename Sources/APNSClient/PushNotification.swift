import APNSCore
import Foundation

/// What a user asks `apns-mock push` to send, before it becomes a request: the flags of the command line, one
/// field each. `PushRequestBuilder` turns it into the path, headers and body APNs expects.
public struct PushNotification: Sendable, Equatable {
    public var deviceToken: String
    /// nil: `liveactivity` when an `event` is given, else `alert`.
    public var pushType: PushType?
    /// The app's bundle ID; the topic is derived from it and the push type.
    public var bundleID: String?
    /// The topic exactly as given (wins over `bundleID`).
    public var topic: String?
    public var priority: Int?
    public var expiration: Int?
    public var collapseID: String?
    public var apnsID: String?
    /// A whole body to send (`--payload`); flags that fill `aps` are merged into it.
    public var payload: [UInt8]?
    public var alertTitle: String?
    public var alertBody: String?
    public var event: LiveActivityEventName?
    /// JSON text of `aps.content-state`.
    public var contentState: String?
    public var attributesType: String?
    /// JSON text of `aps.attributes`.
    public var attributes: String?
    public var staleDate: Int?
    public var dismissalDate: Int?
    public var relevanceScore: Double?
    /// `aps.timestamp`; nil fills in the current time (seconds) for a Live Activity push.
    public var timestamp: Int?
    public var inputPushToken = false
    public var inputPushChannel: String?

    public init(deviceToken: String) {
        self.deviceToken = deviceToken
    }
}

/// `aps.event` of a Live Activity push (A-LA).
public enum LiveActivityEventName: String, Sendable, CaseIterable {
    case start, update, end
}

/// A push ready to send, without its `authorization` header (the provider token is added per attempt).
public struct BuiltPush: Sendable, Equatable {
    public var deviceToken: String
    public var pushType: PushType
    public var topic: String
    public var request: HTTP2Request
}

/// Why a push could not be built: the user's flags contradict each other or a value is malformed.
public struct PushBuildError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
