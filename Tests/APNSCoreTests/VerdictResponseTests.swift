import APNSCore
import Testing

@Suite struct VerdictResponseTests {
    let apnsID = "123e4567-e89b-12d3-a456-4266554400a0"

    @Test func successIsHeadersOnly() {
        let response = Verdict(status: 200).response(apnsID: apnsID, uniqueID: "4084a6e4-9ea8-6d2a-ca49-9a344a152da7")
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.headers == [
            HeaderField("apns-id", apnsID), HeaderField("apns-unique-id", "4084a6e4-9ea8-6d2a-ca49-9a344a152da7"),
        ])
    }

    @Test func successWithoutUniqueIDHasOnlyTheApnsID() {
        let response = Verdict(status: 200).response(apnsID: apnsID, uniqueID: nil)
        #expect(response.headers == [HeaderField("apns-id", apnsID)])
    }

    @Test func errorIsJSONWithReasonOnly() {
        let verdict = Verdict(status: 400, reason: .badDeviceToken, wireReason: "BadDeviceToken")
        let response = verdict.response(apnsID: apnsID, uniqueID: nil)
        #expect(response.status == 400)
        #expect(response.headers == [HeaderField("content-type", "application/json"), HeaderField("apns-id", apnsID)])
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"reason":"BadDeviceToken"}"#)
    }

    @Test func goneCarriesAnIntegerMillisecondTimestamp() {
        let verdict = Verdict(
            status: 410, reason: .unregistered, wireReason: "Unregistered", timestamp: 1_767_139_200_000)
        let response = verdict.response(apnsID: apnsID, uniqueID: nil)
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body == #"{"reason":"Unregistered","timestamp":1767139200000}"#)
    }

    @Test func timestampIsDroppedOnAnythingButGone() {
        let verdict = Verdict(status: 400, reason: .badDeviceToken, wireReason: "BadDeviceToken", timestamp: 5)
        let response = verdict.response(apnsID: apnsID, uniqueID: nil)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"reason":"BadDeviceToken"}"#)
    }

    @Test func errorWithUniqueIDCarriesIt() {
        let verdict = Verdict(status: 403, reason: .invalidProviderToken, wireReason: "InvalidProviderToken")
        let response = verdict.response(apnsID: apnsID, uniqueID: "4084a6e4-9ea8-6d2a-ca49-9a344a152da7")
        #expect(response.value("apns-unique-id") == "4084a6e4-9ea8-6d2a-ca49-9a344a152da7")
        #expect(response.value("content-type") == "application/json")
    }

    @Test func strictAnswerSendsTheMockReason() {
        let verdict = Verdict(status: 400, wireReason: "MockStrict:background-priority-10", isStrictMockAnswer: true)
        let response = verdict.response(apnsID: apnsID, uniqueID: nil)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"reason":"MockStrict:background-priority-10"}"#)
    }
}
