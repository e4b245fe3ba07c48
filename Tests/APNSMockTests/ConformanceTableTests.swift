import APNSCore
import APNSJSON
import CoreTestSupport
import Foundation
import Testing
@testable import APNSMock

extension ConformanceCase: CustomTestStringConvertible {
    package var testDescription: String { description }
}

/// Runs every case of Conformance/cases/device-push.json through the whole push pipeline (`PushPipeline.decide`):
/// the rules, the case's scripted answers (fault injection), the simulated Live Activity device and strict mode,
/// on one connection per case, after the case's `before` pushes.
@Suite struct ConformanceTableTests {
    static let table = Result { try ConformanceTable.load() }

    static func cases() throws -> [ConformanceCase] {
        try table.get().cases
    }

    /// The pipeline, scripted answers and authenticator a server configured for `testCase` would use.
    struct Setup {
        var pipeline: PushPipeline
        var scripts: ScriptedAnswers
        var authenticator: TableAuthenticator?
    }

    static func setup(_ testCase: ConformanceCase, table: ConformanceTable) throws -> Setup {
        let registry = DeviceTokenRegistry(testCase.registry == "declared" ? table.registry : [])
        let validator = PushValidator(configuration: testCase.ruleConfiguration(), tokens: registry)
        // The case's Live Activity settings and scripted answers, read as the server reads its config file.
        var server: [JSONMember] = []
        if let liveActivities = testCase.configuration?.liveActivities {
            server.append(JSONMember("liveActivities", liveActivities))
        }
        if let scripted = testCase.configuration?.scriptedAnswers {
            server.append(JSONMember("scriptedAnswers", .array(scripted)))
        }
        let configuration = try MockConfiguration.decode(Self.bytes(.object(server)), source: testCase.id)
        let settings = configuration.liveActivities
        let schemas = try MockServer.activitySchemas(settings).schemas
        let pipeline = PushPipeline(
            validator: validator,
            device: LiveActivityDevice(configuration: settings.deviceConfiguration(schemas: schemas)),
            strictDevice: settings.strict ?? false)
        return Setup(
            pipeline: pipeline, scripts: ScriptedAnswers(specs: configuration.scriptedAnswers, tokens: registry),
            authenticator: TableAuthenticator.forCase(testCase.auth))
    }

    static func bytes(_ value: JSONValue) -> Data {
        var writer = JSONWriter()
        writer.value(value)
        return Data(writer.bytes)
    }

    @Test(arguments: try cases())
    func thePipelineAnswersAsTheCaseExpects(_ testCase: ConformanceCase) throws {
        let table = try Self.table.get()
        if let auth = testCase.auth, auth != "none", auth != "valid" {
            #expect(TableAuthenticator.forCase(auth) != nil, "unknown auth value \(auth)")
        }
        let setup = try Self.setup(testCase, table: table)
        var connection = PushConnectionState(requiresTokenAuthentication: setup.authenticator != nil)
        var streamID: Int32 = 1
        for earlier in testCase.before ?? [] {
            _ = setup.pipeline.decide(
                testCase.httpRequest(earlier, streamID: streamID), connection: &connection,
                authenticator: setup.authenticator, scripts: setup.scripts, now: table.nowTimestamp)
            streamID += 2
        }
        let decision = setup.pipeline.decide(
            testCase.httpRequest(streamID: streamID), connection: &connection, authenticator: setup.authenticator,
            scripts: setup.scripts, now: table.nowTimestamp)
        let verdict = decision.record.verdict
        let codes = verdict.warnings.map(\.code)
        let rulesCodes = codes.filter { code in
            !ConformanceCase.otherModulesWarningPrefixes.contains { code.hasPrefix($0) }
        }

        #expect(verdict.status == testCase.expect.status, "\(verdict.explanation ?? "")")
        #expect(verdict.wireReason == testCase.expect.reason, "\(verdict.explanation ?? "")")
        #expect(rulesCodes.sorted() == testCase.expect.warnings.sorted())
        #expect(verdict.isStrictMockAnswer == (testCase.expect.strict ?? false))
        if let timestamp = testCase.expect.timestamp {
            #expect(verdict.timestamp == timestamp)
        }
        if let deviceWarnings = testCase.expect.deviceWarnings {
            #expect(codes.filter { $0.hasPrefix("la-") }.sorted() == deviceWarnings.sorted())
        }
        if let outcome = testCase.expect.liveActivity {
            #expect((decision.record.liveActivity?.code ?? "none") == outcome, "\(verdict.explanation ?? "")")
        }
        if verdict.status != 200 {
            #expect(verdict.ruleID != nil)
            #expect(!(verdict.explanation ?? "").isEmpty)
        }
        #expect(decision.sendsResponse)
        try expectWireShape(decision.response, testCase)
    }

    /// The response has APNs' shape: echoed `apns-id`, JSON error body, `timestamp` on 410 only.
    private func expectWireShape(_ response: HTTPResponse, _ testCase: ConformanceCase) throws {
        let sentID = testCase.request.headers.first { $0[0] == "apns-id" }?[1]
        #expect(response.status == testCase.expect.status)
        let apnsID = try #require(response.value("apns-id"))
        if let sentID, !sentID.isEmpty {
            #expect(apnsID == sentID)
        } else {
            #expect(UUID(uuidString: apnsID) != nil && apnsID == apnsID.uppercased(), "a new apns-id is an upper-case UUID")
        }
        if response.status == 200 {
            #expect(response.body.isEmpty)
            #expect(response.value("content-type") == nil)
            return
        }
        #expect(response.value("content-type") == "application/json")
        let body = try JSONDecoder().decode(ErrorBody.self, from: Data(response.body))
        #expect(body.reason == testCase.expect.reason)
        #expect(body.timestamp == testCase.expect.timestamp)
        #expect((body.timestamp != nil) == (response.status == 410))
    }
}
