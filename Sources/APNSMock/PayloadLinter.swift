import APNSCore
import APNSJSON
import Foundation

/// `apns-mock lint`: one push judged offline by the server's own pipeline (`PushPipeline`: rules, the Live Activity
/// payload check and a fresh simulated device with the app's schemas). Authentication is not linted:
/// the push is judged as if its provider token were valid. This file is the lint's only contact with the rules and
/// the Live Activity device.
package enum PayloadLinter {
    package struct Input: Sendable {
        package var payload: [UInt8]
        package var pushType: PushType?
        package var topic: String
        package var deviceToken: String
        package var priority: Int?
        package var expiration: Int?
        /// The event the payload is meant to be (`--event`): a different `aps.event` is a finding.
        package var expectedEvent: String?
        /// The activity's type for an update or end (`--attributes-type`), as the start would have set it; for a
        /// start, the type `aps.attributes-type` must name.
        package var attributesType: String?
        package var now: Timestamp

        package init(payload: [UInt8], pushType: PushType?, topic: String, deviceToken: String, now: Timestamp) {
            self.payload = payload
            self.pushType = pushType
            self.topic = topic
            self.deviceToken = deviceToken
            self.now = now
        }
    }

    package struct Result: Sendable {
        package var status: Int
        package var reason: String?
        package var explanation: String?
        package var ruleID: String?
        package var warnings: [PushWarning]
        /// What the simulated device did (Live Activity pushes APNs accepts).
        package var deviceOutcome: String?
        package var deviceExplanation: String?
        package var deviceDropped: Bool
        /// Mismatches with `--event` / `--attributes-type`.
        package var problems: [String]
        /// Schema types the device knew.
        package var schemaTypes: [String]
        /// What could not be read in the activity sources.
        package var schemaProblems: [String]

        package var isAccepted: Bool { status == 200 }
        /// How to fix a rejection, from the rule that decided (`HowToFix`); nil when APNs would accept.
        package var fix: String? { isAccepted ? nil : HowToFix.text(ruleID: ruleID, reason: reason) }
        /// Lint fails when APNs would reject the push, the device would not apply it, or a stated expectation fails.
        package var passes: Bool { isAccepted && !deviceDropped && problems.isEmpty }
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Judges one push. `liveActivities` supplies the schemas (`--activity-source`, `--activity-schema`).
    package static func lint(_ input: Input, liveActivities: MockConfiguration.LiveActivitySettings) throws -> Result {
        let loaded: (schemas: [ActivitySchema], problems: [String])
        do { loaded = try MockServer.activitySchemas(liveActivities) } catch { throw Failure(description: "\(error)") }
        var schemas = loaded.schemas
        var headers = [HeaderField("apns-topic", input.topic)]
        if let type = input.pushType { headers.append(HeaderField("apns-push-type", type.rawValue)) }
        if let priority = input.priority { headers.append(HeaderField("apns-priority", String(priority))) }
        if let expiration = input.expiration { headers.append(HeaderField("apns-expiration", String(expiration))) }
        let request = HTTPRequest(
            method: "POST", path: "/3/device/" + input.deviceToken, headers: headers, body: input.payload,
            receivedAt: input.now)
        let validator = PushValidator(configuration: RuleConfiguration(), tokens: DeviceTokenRegistry())
        // The event and type checks need the payload before the device sees it; the device's schemas are narrowed
        // by --attributes-type first, so the pipeline's device is built after them.
        let aps = JSONValue.parse(input.payload)?["aps"]
        let event = aps?["event"]?.stringValue
        var problems: [String] = []
        if input.pushType == PushType.liveactivity || input.topic.hasSuffix(".push-type.liveactivity") {
            if let expected = input.expectedEvent, event != expected {
                problems.append("aps.event is \(event.map { "\"\($0)\"" } ?? "missing"), not \"\(expected)\" (--event)")
            }
            if let type = input.attributesType {
                guard schemas.isEmpty || schemas.contains(where: { $0.attributesType == type }) else {
                    throw Failure(description: "--attributes-type \(type) is not among the schemas (\(schemas.map(\.attributesType).joined(separator: ", ")))")
                }
                if event == "start" {
                    if let named = aps?["attributes-type"]?.stringValue, named != type {
                        problems.append("aps.attributes-type is \"\(named)\", not \"\(type)\" (--attributes-type)")
                    }
                } else {
                    // An update or end is read with the schema its start chose: the device knows only that one.
                    schemas = schemas.filter { $0.attributesType == type }
                }
            }
        }
        // The server's own pipeline (rules, Live Activity payload check, device), on a fresh device and connection.
        let pipeline = PushPipeline(
            validator: validator, device: LiveActivityDevice(configuration: LiveActivityConfiguration(schemas: schemas)),
            newApnsID: { "lint" }, newUniqueID: { "lint" })
        var connection = PushConnectionState(requiresTokenAuthentication: true)
        let decision = pipeline.decide(
            request, connection: &connection, authenticator: AcceptingAuthenticator(), scripts: NoScriptedOutcomes(),
            now: input.now)
        let verdict = decision.record.verdict
        var result = Result(
            status: verdict.status, reason: verdict.wireReason, explanation: verdict.explanation, ruleID: verdict.ruleID,
            warnings: verdict.warnings, deviceOutcome: nil, deviceExplanation: nil, deviceDropped: false, problems: [],
            schemaTypes: loaded.schemas.map(\.attributesType), schemaProblems: loaded.problems)
        guard verdict.isAccepted, verdict.pushType == .liveactivity else { return result }
        result.problems = problems
        if let outcome = decision.record.liveActivity {
            result.deviceOutcome = outcome.code
            result.deviceExplanation = outcome.explanation
            result.deviceDropped = LiveActivityOutcome(rawValue: outcome.code)?.isDeviceDrop ?? false
        }
        return result
    }

    /// Lint judges the push, not its provider token: every request is taken as validly signed.
    private final class AcceptingAuthenticator: ConnectionAuthenticator {
        func authenticate(_ request: AuthRequest) -> AuthDecision {
            .accepted(AuthenticatedSender(
                teamID: "LINT", keyID: "LINT", tokenFingerprint: "lint", headerJSON: "{}", claimsJSON: "{}"), warnings: [])
        }
        var hasAuthenticated: Bool { true }
    }
}
