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
