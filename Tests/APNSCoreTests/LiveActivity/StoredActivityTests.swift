@testable import APNSCore
import APNSJSON
import Testing


/// The device's compact form of an activity gives back every field of the snapshot it was made from, set or not,
/// and copies stay independent (value semantics) though they share the box of rare fields.
@Suite struct StoredActivityTests {
    static func snapshot(_ change: (inout ActivitySnapshot) -> Void) -> ActivitySnapshot {
        var snapshot = ActivitySnapshot(deviceToken: "abc123", role: .activity, topic: "com.example.app.push-type.liveactivity")
        change(&snapshot)
        return snapshot
    }

    static let cases: [(String, ActivitySnapshot)] = [
        ("nothing set", snapshot { _ in }),
        ("every field set", snapshot {
            $0.role = .pushToStart
            $0.attributesType = "DeliveryAttributes"
            $0.attributes = .object([JSONMember("orderID", .string("42"))])
            $0.contentState = .object([JSONMember("eta", .number("12"))])
            $0.state = .ended
            $0.stateNote = "ended by the 8-hour limit"
            $0.lastAppliedTimestamp = 1_767_225_600.5
            $0.startedAt = Timestamp(nanosecondsSinceEpoch: 1)
            $0.startSeen = true
            $0.endedAt = Timestamp(nanosecondsSinceEpoch: Int64.max)
            $0.staleDate = Timestamp(nanosecondsSinceEpoch: Int64.min)
            $0.dismissAt = Timestamp(nanosecondsSinceEpoch: 0)
            $0.relevanceScore = -0.0
            $0.startedByPushToStartToken = "def456"
            $0.issuedUpdateTokens = ["a", "b"]
        }),
        ("zero times and numbers are set, not absent", snapshot {
            $0.lastAppliedTimestamp = 0
            $0.relevanceScore = 0
            $0.startedAt = .zero
            $0.state = .active
        }),
        ("only an issued token (push-to-start)", snapshot { $0.issuedUpdateTokens = ["a"] }),
    ]

    @Test(arguments: cases)
    func givesBackTheSnapshot(_ name: String, _ snapshot: ActivitySnapshot) {
        #expect(StoredActivity(snapshot).snapshot == snapshot, "\(name)")
    }

    @Test func copiesAreIndependent() {
        var original = StoredActivity(Self.cases[1].1)
        let copy = original
        original.stateNote = nil
        original.issuedUpdateTokens.append("c")
        original.startedAt = nil
        #expect(copy.snapshot == Self.cases[1].1)
        #expect(original.stateNote == nil && original.issuedUpdateTokens == ["a", "b", "c"] && original.startedAt == nil)
    }

    @Test func clearingEveryRareFieldReadsBackAsEmpty() {
        var activity = StoredActivity(Self.cases[1].1)
        activity.attributesType = nil
        activity.attributes = nil
        activity.stateNote = nil
        activity.startedByPushToStartToken = nil
        activity.issuedUpdateTokens = []
        #expect(activity.attributesType == nil && activity.issuedUpdateTokens.isEmpty)
        activity.stateNote = "again"
        #expect(activity.stateNote == "again")
    }
}
