import APNSCore
import ArgumentParser

/// The signing-key flags of the commands that sign provider tokens (`push`, `conformance server`).
struct SigningKeyOptions: ParsableArguments {
    @Option(name: .customLong("key-file"), help: ArgumentHelp("The .p8 signing key (token-based authentication).", valueName: "p8"))
    var keyFile: String?
    @Option(name: .customLong("key-id"), help: ArgumentHelp("Its 10-character key ID (default: from AuthKey_KEYID.p8).", valueName: "kid"))
    var keyID: String?
    @Option(name: .customLong("team-id"), help: ArgumentHelp("Your 10-character team ID.", valueName: "tid"))
    var teamID: String?
}

/// The request flags of the commands that build one device push (`push`, `lint`).
struct PushHeaderOptions: ParsableArguments {
    @Option(name: .customLong("device-token"), help: ArgumentHelp("The device (or Live Activity) token, hex (lint: a well-formed sample by default).", valueName: "hex"))
    var deviceToken: String?
    @Option(name: .customLong("push-type"), help: ArgumentHelp("apns-push-type: alert|background|liveactivity|voip|complication|fileprovider|mdm|location|pushtotalk|widgets|controls (default alert; liveactivity with --event, or for lint when aps.event is present).", valueName: "type"))
    var pushType: String?
    @Option(name: .customLong("bundle-id"), help: ArgumentHelp("The app's bundle ID; the topic is derived for the push type (lint default com.example.app).", valueName: "id"))
    var bundleID: String?
    @Option(help: ArgumentHelp("apns-topic exactly as given.", valueName: "topic"))
    var topic: String?
    @Option(help: ArgumentHelp("apns-priority: 10, 5 or 1 (background defaults to 5).", valueName: "n"))
    var priority: Int?
    @Option(help: ArgumentHelp("apns-expiration, UNIX seconds.", valueName: "unix"))
    var expiration: Int?

    func validate() throws {
        if let pushType, PushType(rawValue: pushType) == nil {
            throw ValidationError("--push-type \(pushType) is not one of \(PushType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }
}
