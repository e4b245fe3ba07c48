@testable import APNSCore
import Testing

@Suite struct APSKeyTests {
    /// The lookup by length answers what the dictionary answers, for every Apple key and for keys that are not.
    @Test func valueTypeOfAKeyIsTheDictionarys() {
        let others = ["", "a", "Alert", "alerts", "aler", "event ", "timestamps", "stale_date", "content-State",
                      "input-push-tokens", "intéruption-level", "custom"]
        for key in Array(APSKey.known.keys) + others {
            #expect(APSKey.valueType(ofKey: key).map(\.name) == APSKey.known[key].map(\.name), "\(key)")
        }
    }

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
