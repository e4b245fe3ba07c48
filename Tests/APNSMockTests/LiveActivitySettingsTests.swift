import APNSCore
import Foundation
import Testing
@testable import APNSMock

/// The config file's `liveActivities` section reaches the simulated device.
@Suite struct LiveActivitySettingsTests {
    @Test(arguments: [
        (#"{"liveActivities": {"timelineLimit": 3}}"#, 3),
        (#"{"liveActivities": {"timelineLimit": 0}}"#, 1),
        (#"{"liveActivities": {}}"#, 1000),
    ])
    func theTimelineLimitComesFromTheFile(text: String, expected: Int) throws {
        let configuration = try MockConfiguration.decode(Data(text.utf8))
        #expect(configuration.liveActivities.deviceConfiguration(schemas: []).timelineLimit == expected)
    }

    /// A device built from the settings keeps only the newest `timelineLimit` entries of a token.
    @Test func aDeviceKeepsTheConfiguredNumberOfEntries() throws {
        var settings = MockConfiguration.LiveActivitySettings()
        settings.timelineLimit = 2
        let device = LiveActivityDevice(configuration: settings.deviceConfiguration(schemas: []))
        let token = String(repeating: "ab", count: 80)
        let now = Timestamp(secondsSinceEpoch: 1_767_225_600)
        for (index, event) in ["start", "update", "update"].enumerated() {
            let payload = #"{"aps":{"event":"\#(event)","timestamp":\#(1_767_225_600 + index),"#
                + #""attributes-type":"Delivery","attributes":{},"content-state":{"step":\#(index)},"#
                + #""alert":{"title":"t","body":"b"}}}"#
            _ = device.receive(
                LiveActivityPush(deviceToken: token, topic: "com.example.app.push-type.liveactivity",
                                 apnsID: "ID-\(index)", payload: Array(payload.utf8)),
                now: now.adding(seconds: Double(index)))
        }
        let timeline = try #require(device.activity(token: token, now: now.adding(seconds: 3))?.timeline)
        #expect(timeline.map(\.apnsID) == ["ID-1", "ID-2"])
    }
}
