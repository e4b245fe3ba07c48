@testable import APNSCore
import Foundation
import Testing

@testable import APNSStore

/// Records of injected faults: `injected` carries the spec as a JSON object, and a request that got no HTTP answer
/// (reset, black hole, closed connection) has `"status": null`; both JSON writers agree.
@Suite struct InjectedFaultRecordTests {
    static func record(status: Int) -> DeliveryRecord {
        DeliveryRecord(
            id: 4, receivedAt: Timestamp(secondsSinceEpoch: 1_767_225_600), connectionID: 1, clientAddress: "127.0.0.1:1",
            method: "POST", path: "/3/device/aa", deviceToken: "aa", headers: [], payload: Array("{}".utf8),
            status: status, reason: nil, apnsID: "ID", pushType: "alert", topic: "com.example.app", latencyMicroseconds: 3,
            injected: InjectedFault(faultJSON: #"{"resetStream":"REFUSED_STREAM"}"#, index: 1, effect: "resetStream", rulesAnswer: "200"))
    }

    @Test(arguments: [0, 503])
    func theFastWriterAndCodableAgreeOnAnInjectedRecord(status: Int) throws {
        let record = Self.record(status: status)
        let fast = try JSONDecoder().decode(DeliveryRecord.self, from: Data(record.jsonBytes))
        let codable = try JSONDecoder().decode(DeliveryRecord.self, from: JSONEncoder().encode(record))
        #expect(fast == record && codable == record)
        let object = try JSONSerialization.jsonObject(with: Data(record.jsonBytes)) as! [String: Any]
        let injected = object["injected"] as! [String: Any]
        #expect((injected["fault"] as! [String: Any])["resetStream"] as? String == "REFUSED_STREAM")
        #expect(injected["index"] as? Int == 1)
        #expect(status == 0 ? object["status"] is NSNull : object["status"] as? Int == status)
    }
}
