import APNSCore
import Testing

/// The verdict's case decides status, APNs' reason and the wire reason, so they cannot disagree.
@Suite struct VerdictShapeTests {
    @Test func aRejectionsStatusAndWireReasonComeFromItsReason() {
        let verdict = Verdict.rejected(APNsRejection(.payloadTooLarge), PushFindings())
        #expect(verdict.status == Reason.payloadTooLarge.status)
        #expect(verdict.reason == .payloadTooLarge && verdict.wireReason == "PayloadTooLarge")
        #expect(!verdict.isAccepted && !verdict.isStrictMockAnswer)
    }

    @Test func onlyA410KeepsItsTimestamp() {
        #expect(APNsRejection(.badDeviceToken, timestamp: 5).timestamp == nil)
        #expect(APNsRejection(.unregistered, timestamp: 5).timestamp == 5)
        #expect(MockAnswer(origin: .scripted, status: 400, wireReason: "BadTopic", timestamp: 5).timestamp == nil)
    }

    @Test func aMockAnswerIsLabelledStrictOnlyForStrictModes() {
        let strict = Verdict.mockAnswer(
            MockAnswer(origin: .strictMode(code: "c"), status: 400, wireReason: "BadTopic"), PushFindings())
        let scripted = Verdict.mockAnswer(
            MockAnswer(origin: .scripted, status: 410, wireReason: "Unregistered"), PushFindings())
        let device = Verdict.mockAnswer(
            MockAnswer(origin: .strictDevice, status: 400, wireReason: "MockDeviceThrottled"), PushFindings())
        #expect(strict.isStrictMockAnswer && strict.reason == .badTopic)
        #expect(!scripted.isStrictMockAnswer && scripted.reason == .unregistered)
        #expect(device.isStrictMockAnswer && device.reason == nil && device.wireReason == "MockDeviceThrottled")
    }

    @Test func aScripted200HasNoReasonAndNoBody() {
        let verdict = Verdict.mockAnswer(
            MockAnswer(origin: .scripted, status: 200, wireReason: "Unregistered"), PushFindings())
        #expect(verdict.isAccepted && verdict.wireReason == nil && verdict.reason == nil)
        #expect(verdict.response(apnsID: "ID", uniqueID: nil).body.isEmpty)
    }

    @Test func changingTheFindingsKeepsTheAnswer() {
        var verdict = Verdict.rejected(APNsRejection(.unregistered, timestamp: 9), PushFindings())
        verdict.ruleID = "token.unregistered"
        verdict.warnings.append(PushWarning(code: "w", message: "m"))
        #expect(verdict.status == 410 && verdict.timestamp == 9)
        #expect(verdict.ruleID == "token.unregistered" && verdict.warnings.count == 1)
    }

    /// One verdict of each case around `findings`.
    private static func everyCase(_ findings: PushFindings) -> [Verdict] {
        [
            .accepted(findings), .rejected(APNsRejection(.unregistered, timestamp: 9), findings),
            .mockAnswer(MockAnswer(origin: .strictDevice, status: 400, wireReason: "MockX"), findings),
            .unanswered(findings),
        ]
    }

    /// The findings are changed in place in every case: the case, its answer and the other findings stay.
    @Test func changingOneFindingInEveryCaseKeepsTheRest() {
        let findings = PushFindings(
            facts: PushFacts(deviceToken: "ab", topic: "t"), warnings: [PushWarning(code: "a", message: "1")],
            explanation: "e", ruleID: "r", environment: .production, payload: .object([]))
        for original in Self.everyCase(findings) {
            var verdict = original
            verdict.warnings += [PushWarning(code: "b", message: "2")]
            verdict.explanation = nil
            verdict.findings.facts.priority = 5
            var expected = findings
            expected.warnings.append(PushWarning(code: "b", message: "2"))
            expected.explanation = nil
            expected.facts.priority = 5
            #expect(verdict.findings == expected)
            #expect(verdict.status == original.status && verdict.wireReason == original.wireReason)
            #expect(verdict.timestamp == original.timestamp && verdict.isStrictMockAnswer == original.isStrictMockAnswer)
            verdict.warnings = []
            #expect(verdict.warnings.isEmpty && verdict.ruleID == "r")
        }
    }

    /// `appendWarnings` adds after the warnings there were (or takes them when there were none), in every case,
    /// and leaves the answer and the other findings as they were.
    @Test func appendingWarningsInEveryCaseKeepsTheRest() {
        let first = PushWarning(code: "a", message: "1")
        let added = [PushWarning(code: "b", message: "2"), PushWarning(code: "c", message: "3")]
        for before in [[], [first]] {
            let findings = PushFindings(
                facts: PushFacts(deviceToken: "ab", topic: "t"), warnings: before, explanation: "e", ruleID: "r",
                environment: .development, payload: .object([]))
            for original in Self.everyCase(findings) {
                var verdict = original
                verdict.appendWarnings(added)
                var expected = findings
                expected.warnings = before + added
                #expect(verdict.findings == expected)
                #expect(verdict.status == original.status && verdict.wireReason == original.wireReason)
                #expect(verdict.timestamp == original.timestamp && verdict.reason == original.reason)
            }
        }
    }

    @Test func anUnansweredVerdictHasNoStatusAndNoReason() {
        let verdict = Verdict.unanswered(PushFindings(ruleID: "fault.blackHole"))
        #expect(verdict.status == 0 && verdict.wireReason == nil && verdict.reason == nil && !verdict.isAccepted)
        #expect(verdict.ruleID == "fault.blackHole")
    }
}
