import APNSCore
import APNSJSON
import Testing

/// The rules parse the body once and the verdict carries the value, so the Live Activity device does not parse it
/// again; duplicate keys read as the device reads them (the first wins).
@Suite struct ParsedPayloadTests {
    @Test(arguments: [
        (#"{"aps":{"alert":"Hi"}}"#, true),
        (#"{"aps":{"alert":"Hi","alert":7}}"#, true),
        ("[1,2]", true),
        ("not json", false),
    ])
    func theVerdictCarriesThePayloadTheRulesParsed(body: String, parses: Bool) {
        var configuration = RuleConfiguration()
        configuration.nonJSONBody = .acceptWithWarning
        let verdict = PushRequests.validate(PushRequests.push(body: body), configuration: configuration)
        #expect(verdict.payload == JSONValue.parse(Array(body.utf8)))
        #expect((verdict.payload != nil) == parses)
    }

    @Test func aDuplicateAPSKeyIsJudgedByItsFirstValue() {
        let verdict = PushRequests.validate(PushRequests.push(body: #"{"aps":{"alert":"Hi","alert":7}}"#))
        #expect(verdict.isAccepted)
        #expect(!verdict.warnings.contains { $0.code == "aps-key-type" })
        let reversed = PushRequests.validate(PushRequests.push(body: #"{"aps":{"alert":7,"alert":"Hi"}}"#))
        #expect(reversed.warnings.contains { $0.code == "aps-key-type" })
    }
}
