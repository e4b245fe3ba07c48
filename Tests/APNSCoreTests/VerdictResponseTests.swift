import APNSCore
import Testing

@Suite struct VerdictResponseTests {
    let apnsID = "123e4567-e89b-12d3-a456-4266554400a0"

    @Test func successIsHeadersOnly() {
        let response = Verdict.accepted(PushFindings()).response(apnsID: apnsID, uniqueID: "4084a6e4-9ea8-6d2a-ca49-9a344a152da7")
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.headers == [
            HeaderField("apns-id", apnsID), HeaderField("apns-unique-id", "4084a6e4-9ea8-6d2a-ca49-9a344a152da7"),
        ])
    }

    @Test func successWithoutUniqueIDHasOnlyTheApnsID() {
        let response = Verdict.accepted(PushFindings()).response(apnsID: apnsID, uniqueID: nil)
        #expect(response.headers == [HeaderField("apns-id", apnsID)])
    }

    @Test func errorIsJSONWithReasonOnly() {
        let verdict = Verdict.rejected(APNsRejection(.badDeviceToken), PushFindings())
        let response = verdict.response(apnsID: apnsID, uniqueID: nil)
        #expect(response.status == 400)
        #expect(response.headers == [HeaderField("content-type", "application/json"), HeaderField("apns-id", apnsID)])
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"reason":"BadDeviceToken"}"#)
    }

    @Test func goneCarriesAnIntegerMillisecondTimestamp() {
        let verdict = Verdict.rejected(
            APNsRejection(.unregistered, timestamp: 1_767_139_200_000), PushFindings())
        let response = verdict.response(apnsID: apnsID, uniqueID: nil)
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body == #"{"reason":"Unregistered","timestamp":1767139200000}"#)
    }

    @Test func timestampIsDroppedOnAnythingButGone() {
        let verdict = Verdict.rejected(APNsRejection(.badDeviceToken, timestamp: 5), PushFindings())
        let response = verdict.response(apnsID: apnsID, uniqueID: nil)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"reason":"BadDeviceToken"}"#)
    }

    @Test func errorWithUniqueIDCarriesIt() {
        let verdict = Verdict.rejected(APNsRejection(.invalidProviderToken), PushFindings())
        let response = verdict.response(apnsID: apnsID, uniqueID: "4084a6e4-9ea8-6d2a-ca49-9a344a152da7")
        #expect(response.value("apns-unique-id") == "4084a6e4-9ea8-6d2a-ca49-9a344a152da7")
        #expect(response.value("content-type") == "application/json")
    }

    @Test func strictAnswerSendsTheMockReason() {
        let verdict = Verdict.mockAnswer(
            MockAnswer(
                origin: .strictMode(code: "background-priority-10"), status: 400,
                wireReason: "MockStrict:background-priority-10"),
            PushFindings())
        let response = verdict.response(apnsID: apnsID, uniqueID: nil)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"reason":"MockStrict:background-priority-10"}"#)
    }
}

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
        let strict = Verdict.mockAnswer(MockAnswer(origin: .strictMode(code: "c"), status: 400, wireReason: "BadTopic"), PushFindings())
        let scripted = Verdict.mockAnswer(MockAnswer(origin: .scripted, status: 410, wireReason: "Unregistered"), PushFindings())
        #expect(strict.isStrictMockAnswer && strict.reason == .badTopic)
        #expect(!scripted.isStrictMockAnswer && scripted.reason == .unregistered)
        let device = Verdict.mockAnswer(MockAnswer(origin: .strictDevice, status: 400, wireReason: "MockDeviceThrottled"), PushFindings())
        #expect(device.isStrictMockAnswer && device.reason == nil && device.wireReason == "MockDeviceThrottled")
    }

    @Test func aScripted200HasNoReason() {
        let verdict = Verdict.mockAnswer(MockAnswer(origin: .scripted, status: 200, wireReason: "Unregistered"), PushFindings())
        #expect(verdict.isAccepted && verdict.wireReason == nil && verdict.reason == nil)
        #expect(verdict.response(apnsID: "ID", uniqueID: nil).body.isEmpty)
    }

    @Test func settingFindingsKeepsTheAnswer() {
        var verdict = Verdict.rejected(APNsRejection(.unregistered, timestamp: 9), PushFindings())
        verdict.ruleID = "token.unregistered"
        verdict.warnings.append(PushWarning(code: "w", message: "m"))
        #expect(verdict.status == 410 && verdict.timestamp == 9)
        #expect(verdict.ruleID == "token.unregistered" && verdict.warnings.count == 1)
    }

    @Test func anUnansweredVerdictIsRecordedWithStatusZero() {
        let verdict = Verdict.unanswered(PushFindings(ruleID: "fault.blackHole"))
        #expect(verdict.status == 0 && verdict.wireReason == nil && verdict.answerSummary == "0 ")
    }
}
