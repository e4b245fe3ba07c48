import APNSCore
import Foundation
import Testing

/// Runs every case of Conformance/cases/device-push.json against `PushValidator`.
@Suite struct DevicePushConformanceTests {
    static let table = Result { try ConformanceTable.load() }

    static func cases() throws -> [ConformanceCase] {
        try table.get().cases
    }

    @Test(arguments: try cases())
    func validatorAnswersAsTheCaseExpects(_ testCase: ConformanceCase) throws {
        let table = try Self.table.get()
        let registry = DeviceTokenRegistry(testCase.registry == "declared" ? table.registry : [])
        let validator = PushValidator(configuration: testCase.ruleConfiguration(), tokens: registry)
        if let auth = testCase.auth, auth != "none", auth != "valid" {
            #expect(TableAuthenticator.forCase(auth) != nil, "unknown auth value \(auth)")
        }

        let verdict = validator.evaluate(
            testCase.httpRequest(), authenticator: TableAuthenticator.forCase(testCase.auth), now: table.nowTimestamp)

        #expect(verdict.status == testCase.expect.status, "\(verdict.explanation ?? "")")
        #expect(verdict.wireReason == testCase.expect.reason, "\(verdict.explanation ?? "")")
        #expect(verdict.warnings.map(\.code).sorted() == testCase.expect.warnings.sorted())
        #expect(verdict.isStrictMockAnswer == (testCase.expect.strict ?? false))
        if let timestamp = testCase.expect.timestamp {
            #expect(verdict.timestamp == timestamp)
        }
        if verdict.status != 200 {
            #expect(verdict.ruleID != nil)
            #expect(!(verdict.explanation ?? "").isEmpty)
        }
        try expectWireShape(verdict, testCase)
    }

    /// The rendered response has APNs' shape: echoed `apns-id`, JSON error body, `timestamp` on 410 only.
    private func expectWireShape(_ verdict: Verdict, _ testCase: ConformanceCase) throws {
        let sentID = testCase.request.headers.first { $0[0] == "apns-id" }?[1]
        let apnsID = ApnsID.resolve(requestValue: sentID)
        let response = verdict.response(apnsID: apnsID, uniqueID: nil)
        #expect(response.status == testCase.expect.status)
        #expect(response.value("apns-id") == apnsID)
        if let sentID, !sentID.isEmpty {
            #expect(response.value("apns-id") == sentID)
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
