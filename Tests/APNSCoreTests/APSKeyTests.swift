import APNSCore
import Testing

@Suite struct APSKeyTests {
    @Test(arguments: [
        ("state-date", "stale-date"),
        ("contentAvailable", "content-available"),
        ("content_available", "content-available"),
        ("Content-State", "content-state"),
        ("dismisal-date", "dismissal-date"),
        ("evnt", "event"),
    ])
    func nearMissesNameTheAppleKey(_ key: String, _ intended: String) {
        #expect(APSKey.likelyIntended(key) == intended)
    }

    @Test(arguments: ["gameID", "url", "sent", "messageID", "data"])
    func unrelatedKeysAreCustom(_ key: String) {
        #expect(APSKey.likelyIntended(key) == nil)
    }
}
