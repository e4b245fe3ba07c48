import APNSCore
import APNSJSON

extension JSONValue {
    /// Warnings as the command line's JSON output lists them: `[{"code": …, "message": …}]`.
    static func warnings(_ warnings: [PushWarning]) -> JSONValue {
        .array(warnings.map { .object([JSONMember("code", .string($0.code)), JSONMember("message", .string($0.message))]) })
    }
}
